#include "ptx/lexer.hpp"

namespace racer::ptx {
namespace {

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    out.reserve(s_.size() / 4);
    for (;;) {
      skip_space_and_comments(out);
      if (pos_ >= s_.size()) break;
      out.push_back(next());
    }
    out.push_back({Tok::End, static_cast<uint32_t>(s_.size()), {}});
    return out;
  }

 private:
  Token make(Tok k, size_t begin) {
    return {k, static_cast<uint32_t>(begin), s_.substr(begin, pos_ - begin)};
  }

  void skip_space_and_comments(std::vector<Token>& out) {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
        size_t begin = pos_;
        size_t end = s_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) {
          pos_ = s_.size();
          out.push_back({Tok::Error, static_cast<uint32_t>(begin), s_.substr(begin, 2)});
          return;
        }
        pos_ = end + 2;
      } else {
        return;
      }
    }
  }

  Token next() {
    size_t begin = pos_;
    char c = s_[pos_];
    if (is_ident_start(c)) {
      while (pos_ < s_.size() && is_ident_char(s_[pos_])) ++pos_;
      return make(Tok::Ident, begin);
    }
    if (c == '.' && pos_ + 1 < s_.size() && (is_ident_char(s_[pos_ + 1]))) {
      ++pos_;
      // '::' joins qualified modifiers such as .L2::cache_hint or .mbarrier::complete_tx::bytes.
      while (pos_ < s_.size()) {
        if (is_ident_char(s_[pos_])) ++pos_;
        else if (s_[pos_] == ':' && pos_ + 2 < s_.size() && s_[pos_ + 1] == ':' && is_ident_char(s_[pos_ + 2])) pos_ += 2;
        else break;
      }
      return make(Tok::DotWord, begin);
    }
    if (is_digit(c)) return number(begin);
    if (c == '"') {
      ++pos_;
      while (pos_ < s_.size() && s_[pos_] != '"' && s_[pos_] != '\n') ++pos_;
      if (pos_ >= s_.size() || s_[pos_] != '"') return make(Tok::Error, begin);
      ++pos_;
      return make(Tok::String, begin);
    }
    ++pos_;
    switch (c) {
      case '{': return make(Tok::LBrace, begin);
      case '}': return make(Tok::RBrace, begin);
      case '[': return make(Tok::LBracket, begin);
      case ']': return make(Tok::RBracket, begin);
      case '(': return make(Tok::LParen, begin);
      case ')': return make(Tok::RParen, begin);
      case ',': return make(Tok::Comma, begin);
      case ';': return make(Tok::Semi, begin);
      case ':': return make(Tok::Colon, begin);
      case '+': return make(Tok::Plus, begin);
      case '-': return make(Tok::Minus, begin);
      case '|': return make(Tok::Pipe, begin);
      case '!': return make(Tok::Bang, begin);
      case '@': return make(Tok::At, begin);
      case '<': return make(Tok::Lt, begin);
      case '>': return make(Tok::Gt, begin);
      case '=': return make(Tok::Eq, begin);
      default: return make(Tok::Error, begin);
    }
  }

  Token number(size_t begin) {
    auto run_while = [&](auto pred) { while (pos_ < s_.size() && pred(s_[pos_])) ++pos_; };
    if (s_[pos_] == '0' && pos_ + 1 < s_.size()) {
      char k = s_[pos_ + 1];
      if (k == 'f' || k == 'F' || k == 'd' || k == 'D') {
        pos_ += 2;
        run_while(is_hex);
        size_t want = (k == 'f' || k == 'F') ? 8 : 16;
        Tok kind = (pos_ - begin - 2 == want) ? Tok::Float : Tok::Error;
        run_while(is_ident_char);  // swallow junk so the error names the whole literal
        return make(pos_ - begin - 2 == want ? kind : Tok::Error, begin);
      }
      if (k == 'x' || k == 'X') {
        pos_ += 2;
        size_t digits = pos_;
        run_while(is_hex);
        bool ok = pos_ > digits;
        if (pos_ < s_.size() && s_[pos_] == 'U') ++pos_;
        if (pos_ < s_.size() && is_ident_char(s_[pos_])) ok = false;
        run_while(is_ident_char);
        return make(ok ? Tok::Int : Tok::Error, begin);
      }
      if (k == 'b' || k == 'B') {
        pos_ += 2;
        size_t digits = pos_;
        run_while([](char ch) { return ch == '0' || ch == '1'; });
        bool ok = pos_ > digits;
        if (pos_ < s_.size() && s_[pos_] == 'U') ++pos_;
        if (pos_ < s_.size() && is_ident_char(s_[pos_])) ok = false;
        run_while(is_ident_char);
        return make(ok ? Tok::Int : Tok::Error, begin);
      }
    }
    run_while(is_digit);
    bool is_float = false;
    if (pos_ < s_.size() && s_[pos_] == '.' && pos_ + 1 < s_.size() && is_digit(s_[pos_ + 1])) {
      is_float = true;
      ++pos_;
      run_while(is_digit);
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      size_t save = pos_;
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (pos_ < s_.size() && is_digit(s_[pos_])) {
        is_float = true;
        run_while(is_digit);
      } else {
        pos_ = save;
      }
    }
    if (!is_float && pos_ < s_.size() && s_[pos_] == 'U') ++pos_;
    bool ok = !(pos_ < s_.size() && is_ident_char(s_[pos_]));
    run_while(is_ident_char);
    return make(ok ? (is_float ? Tok::Float : Tok::Int) : Tok::Error, begin);
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<Token> lex(std::string_view text) { return Lexer(text).run(); }

std::string_view lex_error_reason(const Token& t) {
  if (t.text.starts_with("/*")) return "unterminated block comment";
  if (t.text.starts_with("\"")) return "unterminated string";
  if (t.text.starts_with("0f") || t.text.starts_with("0F")) return "malformed float literal (0f needs exactly 8 hex digits)";
  if (t.text.starts_with("0d") || t.text.starts_with("0D")) return "malformed double literal (0d needs exactly 16 hex digits)";
  if (!t.text.empty() && t.text[0] >= '0' && t.text[0] <= '9') return "malformed number";
  return "unexpected character";
}

std::string_view tok_name(Tok t) {
  switch (t) {
    case Tok::End: return "end of file";
    case Tok::Ident: return "identifier";
    case Tok::DotWord: return "directive or modifier";
    case Tok::Int: return "integer";
    case Tok::Float: return "float literal";
    case Tok::String: return "string";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::Comma: return "','";
    case Tok::Semi: return "';'";
    case Tok::Colon: return "':'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Pipe: return "'|'";
    case Tok::Bang: return "'!'";
    case Tok::At: return "'@'";
    case Tok::Lt: return "'<'";
    case Tok::Gt: return "'>'";
    case Tok::Eq: return "'='";
    case Tok::Error: return "invalid token";
  }
  return "?";
}

}  // namespace racer::ptx
