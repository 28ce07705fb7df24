// libFuzzer target for the contract language: lexer, parser and linter (src/contract/lang_*).
//
// Any bytes must come back as a parsed file or located diagnostics; a crash, a sanitizer
// report, an exception or a hang is a bug. Every diagnostic must point inside the text.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "contract/lang_lint.hpp"
#include "contract/lang_parser.hpp"
#include "support/source_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  racer::SourceText src("fuzz.kc", text);
  racer::Diagnostics diags;
  racer::contract::ContractFile f = racer::contract::parse_contracts(src, diags);
  if (diags.empty()) racer::contract::lint(src, f, diags, {"", false});
  size_t lines = 1;
  for (char c : text) lines += c == '\n';
  for (const auto& d : diags.items())
    if (d.line < 1 || d.line > lines || d.col < 1) {
      std::fprintf(stderr, "contract_parse_fuzz: diagnostic outside the text: %s\n", d.render().c_str());
      std::abort();
    }
  return 0;
}
