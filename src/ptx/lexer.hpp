#pragma once
// Splits PTX text into tokens. Comments are skipped; nothing is allocated per token.
#include <cstdint>
#include <vector>

#include "ptx/token.hpp"

namespace racer::ptx {

// Tokenizes the whole text; the last token is Tok::End. Malformed pieces become Tok::Error
// tokens (with a reason available from lex_error_reason) so the parser can report them in place.
std::vector<Token> lex(std::string_view text);
// The same tokens; also fills line_starts with the offset of each line's first byte (0 first,
// then one past every '\n'), as SourceText numbers lines, for locating tokens without a search.
std::vector<Token> lex(std::string_view text, std::vector<uint32_t>& line_starts);
std::string_view lex_error_reason(const Token& t);

}  // namespace racer::ptx
