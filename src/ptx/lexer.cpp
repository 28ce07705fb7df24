#include "ptx/lexer.hpp"

#include <array>
#include <bit>
#include <utility>
#include <cstddef>
#include <cstring>

namespace racer::ptx {
namespace {

enum : uint8_t { kIdentStart = 1, kIdentChar = 2, kDigit = 4, kHex = 8, kSpace = 16, kSkip = 32 };

constexpr std::array<uint8_t, 256> make_classes() {
  std::array<uint8_t, 256> c{};
  for (int i = 0; i < 256; ++i) {
    uint8_t v = 0;
    bool alpha = (i >= 'a' && i <= 'z') || (i >= 'A' && i <= 'Z');
    bool digit = i >= '0' && i <= '9';
    if (alpha || i == '_' || i == '$' || i == '%') v |= kIdentStart | kIdentChar;
    if (digit) v |= kIdentChar | kDigit | kHex;
    if ((i >= 'a' && i <= 'f') || (i >= 'A' && i <= 'F')) v |= kHex;
    if (i == ' ' || i == '\t' || i == '\n' || i == '\r' || i == '\f' || i == '\v') v |= kSpace | kSkip;
    if (i == '/') v |= kSkip;  // may start a comment
    c[static_cast<size_t>(i)] = v;
  }
  return c;
}
constexpr std::array<uint8_t, 256> kClass = make_classes();

inline uint8_t cls(char c) { return kClass[static_cast<unsigned char>(c)]; }

// What a token starting with a given byte is; Punct's kind is in kPunct.
enum class Start : uint8_t { Error, Ident, Dot, Digit, Quote, Punct };
struct StartTables {
  std::array<Start, 256> start{};
  std::array<Tok, 256> punct{};
};
constexpr StartTables make_start_tables() {
  StartTables t{};
  for (int i = 0; i < 256; ++i) {
    auto u = static_cast<size_t>(i);
    t.start[u] = Start::Error;
    t.punct[u] = Tok::Error;
    if (kClass[u] & kIdentStart) t.start[u] = Start::Ident;
    else if (kClass[u] & kDigit) t.start[u] = Start::Digit;
    else if (i == '.') t.start[u] = Start::Dot;
    else if (i == '"') t.start[u] = Start::Quote;
  }
  constexpr std::pair<char, Tok> punct[] = {
      {'{', Tok::LBrace}, {'}', Tok::RBrace}, {'[', Tok::LBracket}, {']', Tok::RBracket}, {'(', Tok::LParen},
      {')', Tok::RParen}, {',', Tok::Comma},  {';', Tok::Semi},     {':', Tok::Colon},    {'+', Tok::Plus},
      {'-', Tok::Minus},  {'|', Tok::Pipe},   {'!', Tok::Bang},     {'@', Tok::At},       {'<', Tok::Lt},
      {'>', Tok::Gt},     {'=', Tok::Eq},
  };
  for (auto [ch, tok] : punct) {
    t.start[static_cast<unsigned char>(ch)] = Start::Punct;
    t.punct[static_cast<unsigned char>(ch)] = tok;
  }
  return t;
}
constexpr StartTables kStart = make_start_tables();
inline bool is_ident_start(char c) { return cls(c) & kIdentStart; }
inline bool is_ident_char(char c) { return cls(c) & kIdentChar; }
inline bool is_digit(char c) { return cls(c) & kDigit; }
inline bool is_hex(char c) { return cls(c) & kHex; }

// Eight bytes at p, first byte lowest (the byte order the space skipping below assumes).
inline uint64_t load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

class Lexer {
 public:
  Lexer(std::string_view s, std::vector<uint32_t>* line_starts)
      : base_(s.data()), end_(s.data() + s.size()), p_(base_), lines_(line_starts) {}

  std::vector<Token> run() {
    size_t size = static_cast<size_t>(end_ - base_);
    // PTX runs at about 0.3 tokens per byte: sized for a third, tokens are written in place
    // (growing when a file is denser) and the vector is cut to the count at the end.
    std::vector<Token> out(size / 3 + 16);
    Token* w = out.data();
    Token* w_end = w + out.size();
    if (lines_) {
      lines_->clear();
      lines_->reserve(size / 24 + 16);
      lines_->push_back(0);
    }
    for (;;) {
      if (w == w_end) {
        size_t n = out.size();
        out.resize(2 * n);
        w = out.data() + n;
        w_end = out.data() + out.size();
      }
      if (!skip_space_and_comments(*w)) {
        ++w;  // an unterminated block comment: an Error token, and the end of the text
        if (w == w_end) {
          size_t n = out.size();
          out.resize(n + 1);
          w = out.data() + n;
        }
        break;
      }
      if (p_ >= end_) break;
      *w++ = next();
    }
    *w++ = Token{Tok::End, static_cast<uint32_t>(size), {}};
    out.resize(static_cast<size_t>(w - out.data()));
    return out;
  }

 private:
  Token make(Tok k, const char* begin) const {
    return {k, static_cast<uint32_t>(begin - base_), std::string_view(begin, static_cast<size_t>(p_ - begin))};
  }

  void note_newlines(const char* p, const char* e) {
    if (!lines_) return;
    while (p < e) {
      const void* nl = std::memchr(p, '\n', static_cast<size_t>(e - p));
      if (!nl) break;
      p = static_cast<const char*>(nl) + 1;
      lines_->push_back(static_cast<uint32_t>(p - base_));
    }
  }

  // Skips whitespace and comments. An unterminated block comment becomes an Error token
  // written to `error` (returns false) and ends the text.
  bool skip_space_and_comments(Token& error) {
    while (p_ < end_ && (cls(*p_) & kSkip)) {
      char c = *p_;
      if (c == ' ') {
        ++p_;
        // Runs of spaces (alignment before trailing comments) eight at a time.
        while (end_ - p_ >= 8) {
          uint64_t x = load8(p_) ^ 0x2020202020202020ull;
          if (x) {
            p_ += std::countr_zero(x) >> 3;
            break;
          }
          p_ += 8;
        }
      } else if (c == '\n') {
        ++p_;
        if (lines_) lines_->push_back(static_cast<uint32_t>(p_ - base_));
      } else if (cls(c) & kSpace) {
        ++p_;
      } else if (c == '/' && end_ - p_ > 1 && p_[1] == '/') {
        const void* nl = std::memchr(p_ + 2, '\n', static_cast<size_t>(end_ - p_ - 2));
        p_ = nl ? static_cast<const char*>(nl) : end_;
      } else if (c == '/' && end_ - p_ > 1 && p_[1] == '*') {
        const char* begin = p_;
        size_t at = std::string_view(p_ + 2, static_cast<size_t>(end_ - p_ - 2)).find("*/");
        if (at == std::string_view::npos) {
          note_newlines(begin, end_);
          p_ = end_;
          error = {Tok::Error, static_cast<uint32_t>(begin - base_), std::string_view(begin, 2)};
          return false;
        }
        const char* close = p_ + 2 + at;
        note_newlines(begin, close);
        p_ = close + 2;
      } else {
        break;
      }
    }
    return true;
  }

  bool more(size_t k = 0) const { return end_ - p_ > static_cast<ptrdiff_t>(k); }  // p_[k] exists

  Token next() {
    const char* begin = p_;
    const auto c = static_cast<unsigned char>(*p_);
    switch (kStart.start[c]) {
      case Start::Ident:
        ++p_;
        while (p_ < end_ && is_ident_char(*p_)) ++p_;
        return make(Tok::Ident, begin);
      case Start::Dot:
        if (more(1) && is_ident_char(p_[1])) {
          ++p_;
          // '::' joins qualified modifiers such as .L2::cache_hint or .mbarrier::complete_tx::bytes.
          while (p_ < end_) {
            if (is_ident_char(*p_)) ++p_;
            else if (*p_ == ':' && more(2) && p_[1] == ':' && is_ident_char(p_[2])) p_ += 2;
            else break;
          }
          return make(Tok::DotWord, begin);
        }
        break;
      case Start::Digit:
        return number(begin);
      case Start::Quote:
        ++p_;
        while (p_ < end_ && *p_ != '"' && *p_ != '\n') ++p_;
        if (p_ >= end_ || *p_ != '"') return make(Tok::Error, begin);
        ++p_;
        return make(Tok::String, begin);
      case Start::Punct:
        ++p_;
        return make(kStart.punct[c], begin);
      case Start::Error:
        break;
    }
    ++p_;
    return make(Tok::Error, begin);
  }

  Token number(const char* begin) {
    auto run_while = [&](auto pred) { while (p_ < end_ && pred(*p_)) ++p_; };
    if (*p_ == '0' && more(1)) {
      char k = p_[1];
      if (k == 'f' || k == 'F' || k == 'd' || k == 'D') {
        p_ += 2;
        run_while(is_hex);
        size_t want = (k == 'f' || k == 'F') ? 8 : 16;
        Tok kind = (static_cast<size_t>(p_ - begin) - 2 == want) ? Tok::Float : Tok::Error;
        run_while(is_ident_char);  // swallow junk so the error names the whole literal
        return make(static_cast<size_t>(p_ - begin) - 2 == want ? kind : Tok::Error, begin);
      }
      if (k == 'x' || k == 'X') {
        p_ += 2;
        const char* digits = p_;
        run_while(is_hex);
        bool ok = p_ > digits;
        if (p_ < end_ && *p_ == 'U') ++p_;
        if (p_ < end_ && is_ident_char(*p_)) ok = false;
        run_while(is_ident_char);
        return make(ok ? Tok::Int : Tok::Error, begin);
      }
      if (k == 'b' || k == 'B') {
        p_ += 2;
        const char* digits = p_;
        run_while([](char ch) { return ch == '0' || ch == '1'; });
        bool ok = p_ > digits;
        if (p_ < end_ && *p_ == 'U') ++p_;
        if (p_ < end_ && is_ident_char(*p_)) ok = false;
        run_while(is_ident_char);
        return make(ok ? Tok::Int : Tok::Error, begin);
      }
    }
    run_while(is_digit);
    bool is_float = false;
    if (p_ < end_ && *p_ == '.' && more(1) && is_digit(p_[1])) {
      is_float = true;
      ++p_;
      run_while(is_digit);
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      const char* save = p_;
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ < end_ && is_digit(*p_)) {
        is_float = true;
        run_while(is_digit);
      } else {
        p_ = save;
      }
    }
    if (!is_float && p_ < end_ && *p_ == 'U') ++p_;
    bool ok = !(p_ < end_ && is_ident_char(*p_));
    run_while(is_ident_char);
    return make(ok ? (is_float ? Tok::Float : Tok::Int) : Tok::Error, begin);
  }

  const char* base_;
  const char* end_;
  const char* p_;
  std::vector<uint32_t>* lines_;
};

}  // namespace

std::vector<Token> lex(std::string_view text) { return Lexer(text, nullptr).run(); }

std::vector<Token> lex(std::string_view text, std::vector<uint32_t>& line_starts) {
  return Lexer(text, &line_starts).run();
}

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
