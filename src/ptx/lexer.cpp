#include "ptx/lexer.hpp"

#include <algorithm>
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

// The end of a number starting at p (a digit): integers (decimal, 0x, 0b, octal, U suffix),
// decimal floats and 0f/0d bit patterns; malformed ones swallow their trailing junk and
// become Error tokens.
struct Lexed {
  const char* end;
  Tok kind;
};
Lexed lex_number(const char* p, const char* end) {
  const char* begin = p;
  auto run_while = [&](auto pred) { while (p < end && pred(*p)) ++p; };
  if (*p == '0' && end - p > 1) {
    char k = p[1];
    if (k == 'f' || k == 'F' || k == 'd' || k == 'D') {
      p += 2;
      run_while(is_hex);
      size_t want = (k == 'f' || k == 'F') ? 8 : 16;
      Tok kind = (static_cast<size_t>(p - begin) - 2 == want) ? Tok::Float : Tok::Error;
      run_while(is_ident_char);  // swallow junk so the error names the whole literal
      return {p, static_cast<size_t>(p - begin) - 2 == want ? kind : Tok::Error};
    }
    if (k == 'x' || k == 'X' || k == 'b' || k == 'B') {
      bool hex = k == 'x' || k == 'X';
      p += 2;
      const char* digits = p;
      if (hex) run_while(is_hex);
      else run_while([](char ch) { return ch == '0' || ch == '1'; });
      bool ok = p > digits;
      if (p < end && *p == 'U') ++p;
      if (p < end && is_ident_char(*p)) ok = false;
      run_while(is_ident_char);
      return {p, ok ? Tok::Int : Tok::Error};
    }
  }
  run_while(is_digit);
  bool is_float = false;
  if (p < end && *p == '.' && end - p > 1 && is_digit(p[1])) {
    is_float = true;
    ++p;
    run_while(is_digit);
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    const char* save = p;
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    if (p < end && is_digit(*p)) {
      is_float = true;
      run_while(is_digit);
    } else {
      p = save;
    }
  }
  if (!is_float && p < end && *p == 'U') ++p;
  bool ok = !(p < end && is_ident_char(*p));
  run_while(is_ident_char);
  return {p, ok ? (is_float ? Tok::Float : Tok::Int) : Tok::Error};
}

void note_newlines(const char* base, const char* p, const char* e, std::vector<uint32_t>* lines) {
  if (!lines) return;
  while (p < e) {
    const void* nl = std::memchr(p, '\n', static_cast<size_t>(e - p));
    if (!nl) break;
    p = static_cast<const char*>(nl) + 1;
    lines->push_back(static_cast<uint32_t>(p - base));
  }
}

// Out of the scanning loop: grows the full token vector to what the density so far predicts
// for the rest of the text, and an eighth more.
[[gnu::noinline]] void grow_tokens(std::vector<Token>& out, size_t done, size_t rest) {
  size_t n = out.size();
  double more = static_cast<double>(rest) * static_cast<double>(n) / static_cast<double>(std::max<size_t>(1, done));
  out.resize(n + static_cast<size_t>(more * 1.125) + 64);
}

// The scanning state lives in locals (not members) so it stays in registers across the
// token stores.
std::vector<Token> run_lexer(std::string_view text, std::vector<uint32_t>* lines) {
  const char* const base = text.data();
  const char* const end = base + text.size();
  const char* p = base;
  const size_t size = text.size();
  // PTX runs at about 0.3 tokens per byte: sized for a third (up to a bound; past it, grown
  // by the density seen so far), tokens are written in place and the vector is cut to the
  // count at the end.
  constexpr size_t kInitialLimit = size_t{1} << 20;
  std::vector<Token> out(std::min(size / 3 + 16, kInitialLimit));
  Token* w = out.data();
  Token* w_end = w + out.size();
  if (lines) {
    lines->clear();
    lines->reserve(size / 24 + 16);
    lines->push_back(0);
  }
  for (;;) {
    // Whitespace and comments.
    bool unterminated_comment = false;
    while (p < end && (cls(*p) & kSkip)) {
      char c = *p;
      if (c == ' ') {
        ++p;
        // Runs of spaces (alignment before trailing comments) eight at a time.
        while (end - p >= 8 && *p == ' ') {
          uint64_t x = load8(p) ^ 0x2020202020202020ull;
          if (x) {
            p += std::countr_zero(x) >> 3;
            break;
          }
          p += 8;
        }
      } else if (c == '\n') {
        ++p;
        if (lines) lines->push_back(static_cast<uint32_t>(p - base));
      } else if (c != '/') {
        ++p;
      } else if (end - p > 1 && p[1] == '/') {
        const void* nl = std::memchr(p + 2, '\n', static_cast<size_t>(end - p - 2));
        p = nl ? static_cast<const char*>(nl) : end;
      } else if (end - p > 1 && p[1] == '*') {
        size_t at = std::string_view(p + 2, static_cast<size_t>(end - p - 2)).find("*/");
        if (at == std::string_view::npos) {
          unterminated_comment = true;
          break;
        }
        const char* close = p + 2 + at;
        note_newlines(base, p, close, lines);
        p = close + 2;
      } else {
        break;  // a lone '/': an Error token below
      }
    }
    if (w == w_end) [[unlikely]] {
      size_t n = out.size();
      grow_tokens(out, static_cast<size_t>(p - base), static_cast<size_t>(end - p));
      w = out.data() + n;
      w_end = out.data() + out.size();
    }
    if (unterminated_comment) {
      // An Error token, and the end of the text.
      note_newlines(base, p, end, lines);
      *w++ = {Tok::Error, static_cast<uint32_t>(p - base), std::string_view(p, 2)};
      p = end;
      if (w == w_end) {
        size_t n = out.size();
        out.resize(n + 1);
        w = out.data() + n;
      }
      break;
    }
    if (p >= end) break;

    const char* begin = p;
    const auto c = static_cast<unsigned char>(*p);
    Tok kind = Tok::Error;
    switch (kStart.start[c]) {
      case Start::Ident:
        ++p;
        while (p < end && is_ident_char(*p)) ++p;
        kind = Tok::Ident;
        break;
      case Start::Dot:
        ++p;
        if (p < end && is_ident_char(*p)) {
          // '::' joins qualified modifiers such as .L2::cache_hint or .mbarrier::complete_tx::bytes.
          while (p < end) {
            if (is_ident_char(*p)) ++p;
            else if (*p == ':' && end - p > 2 && p[1] == ':' && is_ident_char(p[2])) p += 2;
            else break;
          }
          kind = Tok::DotWord;
        }
        break;
      case Start::Digit: {
        Lexed n = lex_number(p, end);
        p = n.end;
        kind = n.kind;
        break;
      }
      case Start::Quote:
        ++p;
        while (p < end && *p != '"' && *p != '\n') ++p;
        if (p < end && *p == '"') {
          ++p;
          kind = Tok::String;
        }
        break;
      case Start::Punct:
        ++p;
        kind = kStart.punct[c];
        break;
      case Start::Error:
        ++p;
        break;
    }
    *w++ = {kind, static_cast<uint32_t>(begin - base), std::string_view(begin, static_cast<size_t>(p - begin))};
  }
  *w++ = Token{Tok::End, static_cast<uint32_t>(size), {}};
  out.resize(static_cast<size_t>(w - out.data()));
  return out;
}

}  // namespace

std::vector<Token> lex(std::string_view text) { return run_lexer(text, nullptr); }

std::vector<Token> lex(std::string_view text, std::vector<uint32_t>& line_starts) {
  return run_lexer(text, &line_starts);
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
