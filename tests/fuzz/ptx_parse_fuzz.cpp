// libFuzzer target for the PTX front end: lexer, parser and printer.
//
// Any bytes must either parse or be rejected with racer::Error; anything else (a crash, a
// sanitizer report, another exception type, a hang) is a bug. When the input parses, the
// printed module must parse again and print to the same text (printing is a fixed point).
// With RACER_FUZZ_STRICT_IR=1 in the environment the re-parsed IR must also equal the first
// (printer.hpp promises parse(print(m)) == m); off by default, see README.md.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ptx/lexer.hpp"
#include "ptx/parser.hpp"
#include "ptx/printer.hpp"
#include "support/error.hpp"
#include "support/source_text.hpp"

namespace {

[[noreturn]] void die(const char* what, std::string_view detail) {
  std::fprintf(stderr, "ptx_parse_fuzz: %s\n%.*s\n", what, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// The lexer's documented contract: tokens in order, inside the text, the last one End.
void check_tokens(std::string_view text) {
  using racer::ptx::Tok;
  auto toks = racer::ptx::lex(text);
  if (toks.empty() || toks.back().kind != Tok::End) die("lex: token list does not end with End", {});
  size_t prev_end = 0;
  for (size_t i = 0; i + 1 < toks.size(); ++i) {
    const auto& t = toks[i];
    if (t.kind == Tok::End) die("lex: End token before the last position", {});
    if (t.text.empty()) die("lex: empty token", {});
    if (t.offset < prev_end || t.offset + t.text.size() > text.size() || t.text.data() != text.data() + t.offset)
      die("lex: token outside the text or out of order", t.text);
    prev_end = t.offset + t.text.size();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  check_tokens(text);

  static const bool strict_ir = [] {
    const char* v = std::getenv("RACER_FUZZ_STRICT_IR");
    return v && *v && std::string_view(v) != "0";
  }();

  racer::ptx::Module first;
  std::string printed;
  try {
    racer::SourceText src("fuzz.ptx", text);
    first = racer::ptx::parse_ptx(src).module;
    printed = racer::ptx::print_module(first);
  } catch (const racer::Error&) {
    return 0;  // rejected with diagnostics: the expected outcome for most inputs
  }

  racer::ptx::Module second;
  std::string reprinted;
  try {
    racer::SourceText again("fuzz.printed.ptx", printed);
    second = racer::ptx::parse_ptx(again).module;
    reprinted = racer::ptx::print_module(second);
  } catch (const racer::Error& e) {
    die("round trip: the printed module does not parse", std::string(e.what()) + "\n--- printed ---\n" + printed);
  }
  if (reprinted != printed)
    die("round trip: printing is not a fixed point", "--- first print ---\n" + printed + "\n--- second print ---\n" + reprinted);
  if (strict_ir && !(first == second)) die("round trip: the re-parsed IR differs from the first", printed);
  return 0;
}
