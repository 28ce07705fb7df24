#pragma once
// Tokens of the contract language: identifiers, numbers, "strings", punctuation. `#` starts
// a comment to the end of the line. Errors (an unterminated string, a stray character) are
// recorded and the lexer goes on, so a file reports all its problems at once.
#include <string>
#include <vector>

#include "support/diagnostics.hpp"
#include "support/source_text.hpp"

namespace racer::contract {

enum class Tok : uint8_t { Ident, Number, String, Punct, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;  // identifier, punctuation, number as written, string contents (unescaped)
  double number = 0;
  size_t offset = 0;
  size_t width = 1;
};

std::vector<Token> lex_contract(const SourceText& src, Diagnostics& diags);

}  // namespace racer::contract
