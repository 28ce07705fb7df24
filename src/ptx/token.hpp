#pragma once
#include <cstdint>
#include <string_view>

namespace racer::ptx {

enum class Tok : uint8_t {
  End,
  Ident,      // foo, %r1, $L__BB0_2, _$_str
  DotWord,    // .reg, .f32, .L2::cache_hint, .shared::cta (the text includes the dot)
  Int,        // 42, 0x1F, 0b101, 017, optional U suffix
  Float,      // 0f3F800000, 0d3FF0000000000000, 1.5, 1e-5
  String,     // "kernels.py" (text includes the quotes)
  LBrace, RBrace, LBracket, RBracket, LParen, RParen,
  Comma, Semi, Colon, Plus, Minus, Pipe, Bang, At, Lt, Gt, Eq,
  Error,      // a character no PTX token starts with, or an unterminated string/comment
};

struct Token {
  Tok kind = Tok::End;
  uint32_t offset = 0;  // byte offset in the source
  std::string_view text;
};

std::string_view tok_name(Tok t);  // for messages: "identifier", "','", ...

}  // namespace racer::ptx
