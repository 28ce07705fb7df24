#include "contract/lang_lexer.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace racer::contract {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::vector<Token> lex_contract(const SourceText& src, Diagnostics& diags) {
  const std::string& s = src.text();
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size() && !diags.full()) {
    char c = s[i];
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    size_t start = i;
    if (ident_start(c)) {
      while (i < s.size() && ident_char(s[i])) ++i;
      out.push_back({Tok::Ident, s.substr(start, i - start), 0, start, i - start});
      continue;
    }
    if (digit(c) || (c == '.' && i + 1 < s.size() && digit(s[i + 1]))) {
      while (i < s.size() && (digit(s[i]) || s[i] == '.')) ++i;
      if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
        if (j < s.size() && digit(s[j])) {
          i = j;
          while (i < s.size() && digit(s[i])) ++i;
        }
      }
      std::string text = s.substr(start, i - start);
      char* end = nullptr;
      double v = std::strtod(text.c_str(), &end);
      if (end != text.c_str() + text.size() || !std::isfinite(v)) {
        diags.error(src, start, i - start, "malformed number '" + text + "'");
        v = 0;
      }
      if (i < s.size() && ident_char(s[i])) {
        size_t j = i;
        while (j < s.size() && ident_char(s[j])) ++j;
        diags.error(src, start, j - start, "malformed number '" + s.substr(start, j - start) + "'");
        i = j;
      }
      out.push_back({Tok::Number, text, v, start, i - start});
      continue;
    }
    if (c == '"') {
      std::string text;
      ++i;
      bool closed = false;
      while (i < s.size() && s[i] != '\n') {
        if (s[i] == '"') {
          closed = true;
          ++i;
          break;
        }
        if (s[i] == '\\' && i + 1 < s.size()) {
          char e = s[i + 1];
          if (e == 'n') text += '\n';
          else if (e == '"' || e == '\\') text += e;
          else diags.error(src, i, 2, std::string("unknown escape '\\") + e + "' in string");
          i += 2;
          continue;
        }
        text += s[i++];
      }
      if (!closed) diags.error(src, start, 1, "unterminated string (strings end on the same line)");
      out.push_back({Tok::String, text, 0, start, i - start});
      continue;
    }
    static const char* two[] = {"<=", ">=", "==", "!="};
    bool matched = false;
    for (const char* t : two)
      if (s.compare(i, 2, t) == 0) {
        out.push_back({Tok::Punct, t, 0, i, 2});
        i += 2;
        matched = true;
        break;
      }
    if (matched) continue;
    if (std::string_view("{}()[],;:=<>+-*/^").find(c) != std::string_view::npos) {
      out.push_back({Tok::Punct, std::string(1, c), 0, i, 1});
      ++i;
      continue;
    }
    diags.error(src, i, 1, std::string("unexpected character '") + (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x" + std::to_string(static_cast<unsigned char>(c))) + "'");
    ++i;
  }
  out.push_back({Tok::End, "end of file", 0, s.size(), 1});
  return out;
}

}  // namespace racer::contract
