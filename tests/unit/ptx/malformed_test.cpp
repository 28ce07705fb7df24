// Malformed PTX gets a precise, located message (file:line:col and what is wrong); all
// errors of a file are reported; nothing crashes or hangs.
#include <gtest/gtest.h>

#include "ptx/parser.hpp"
#include "support/error.hpp"

namespace racer::ptx {
namespace {

const char* kHeader =
    ".version 8.7\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 p)\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.reg .pred %p<2>;\n"
    "\t.reg .f32 %f<2>;\n"
    "\t.reg .b64 %rd<2>;\n";  // the body under test starts on line 10

std::string errors_of(const std::string& text) {
  try {
    parse_ptx(SourceText("bad.ptx", text));
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    return e.what();
  }
  return "<parsed without error>";
}

std::string first_error(const std::string& text) {
  std::string all = errors_of(text);
  return all.substr(0, all.find('\n'));
}

std::string in_body(const std::string& body) { return std::string(kHeader) + body + "\tret;\n}\n"; }

struct Case {
  const char* name;
  std::string text;
  const char* expected;
};

class Malformed : public ::testing::TestWithParam<Case> {};

TEST_P(Malformed, GivesTheExactMessage) { EXPECT_EQ(first_error(GetParam().text), GetParam().expected); }

INSTANTIATE_TEST_SUITE_P(
    Ptx, Malformed,
    ::testing::Values(
        Case{"truncated_file", std::string(kHeader) + "\tadd.s32 %r1, %r2",
             "bad.ptx:10:18: error: missing ';' at end of file"},
        Case{"unterminated_body", std::string(kHeader) + "\tret;\n",
             "bad.ptx:5:1: error: unterminated body of 'k': missing '}'"},
        Case{"unknown_opcode", in_body("\tfrobnicate.s32 %r1, %r2;\n"),
             "bad.ptx:10:2: error: unknown instruction 'frobnicate'"},
        Case{"unknown_modifier", in_body("\tadd.sideways.s32 %r1, %r2, %r3;\n"),
             "bad.ptx:10:5: error: unknown modifier '.sideways' for 'add'"},
        Case{"duplicate_modifier", in_body("\tld.global.global.f32 %f1, [%rd1];\n"),
             "bad.ptx:10:11: error: duplicate modifier '.global' on 'ld'"},
        Case{"missing_type", in_body("\tadd %r1, %r2, %r3;\n"),
             "bad.ptx:10:2: error: 'add' needs 1 type (e.g. .f32), found 0"},
        Case{"too_many_operands", in_body("\tadd.s32 %r1, %r2, %r3, %r0;\n"),
             "bad.ptx:10:25: error: 'add' takes 3 operands, found 4"},
        Case{"too_few_operands", in_body("\tadd.s32 %r1, %r2;\n"),
             "bad.ptx:10:15: error: 'add' takes 3 operands, found 2"},
        Case{"undeclared_register", in_body("\tadd.s32 %r1, %r9, %r2;\n"),
             "bad.ptx:10:15: error: undeclared register '%r9'"},
        Case{"wrong_register_type", in_body("\t.reg .u32 %u;\n\tadd.f32 %f1, %u, %f0;\n"),
             "bad.ptx:11:15: error: operand 2 of 'add' must be .f32, but register '%u' is .u32"},
        Case{"wrong_register_width", in_body("\tadd.s32 %r1, %rd1, %r2;\n"),
             "bad.ptx:10:15: error: operand 2 of 'add' must be .s32, but register '%rd1' is .b64"},
        Case{"float_literal_for_integer", in_body("\tadd.s32 %r1, %r2, 0f3F800000;\n"),
             "bad.ptx:10:20: error: float literal where operand 3 of 'add' expects .s32"},
        Case{"bad_float_literal", in_body("\tmov.f32 %f1, 0f3F80;\n"),
             "bad.ptx:10:15: error: malformed float literal (0f needs exactly 8 hex digits) '0f3F80'"},
        Case{"bad_double_literal", in_body("\tmov.b64 %rd1, 0d3FF0;\n"),
             "bad.ptx:10:16: error: malformed double literal (0d needs exactly 16 hex digits) '0d3FF0'"},
        Case{"wrong_vector_width", in_body("\tld.global.v4.f32 {%f0, %f1}, [%rd1];\n"),
             "bad.ptx:10:19: error: operand 1 of 'ld' must be a vector of 4 elements, found 2"},
        Case{"vector_without_modifier", in_body("\tld.global.f32 {%f0, %f1}, [%rd1];\n"),
             "bad.ptx:10:16: error: operand 1 of 'ld' is a vector but the instruction has no .v2/.v4 modifier"},
        Case{"unclosed_address", in_body("\tld.global.f32 %f1, [%rd1;\n"),
             "bad.ptx:10:26: error: expected ']' closing the address opened here at column 21"},
        Case{"destination_is_immediate", in_body("\tmov.b32 5, %r1;\n"),
             "bad.ptx:10:10: error: operand 1 of 'mov' is a destination and must be a register"},
        Case{"guard_not_predicate", in_body("\t@%r1 bra $L1;\n$L1:\n"),
             "bad.ptx:10:3: error: guard '%r1' is not a .pred register"},
        Case{"undefined_label", in_body("\tbra $Lnowhere;\n"),
             "bad.ptx:10:6: error: undefined label '$Lnowhere'"},
        Case{"duplicate_label", in_body("$L1:\n$L1:\n"),
             "bad.ptx:11:1: error: duplicate label '$L1'"},
        Case{"address_not_bracketed", in_body("\tld.global.f32 %f1, %rd1;\n"),
             "bad.ptx:10:21: error: operand 2 of 'ld' must be an address in '[ ]'"},
        Case{"special_register_component", in_body("\tmov.u32 %r1, %tid.w;\n"),
             "bad.ptx:10:19: error: bad component '.w' (expected .x, .y or .z)"},
        Case{"missing_version",
             ".target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n",
             "bad.ptx:1:1: error: missing .version directive (every PTX module starts with one)"},
        Case{"bad_address_size", ".version 8.7\n.target sm_90\n.address_size 48\n",
             "bad.ptx:3:15: error: .address_size must be 32 or 64"},
        Case{"unterminated_comment", std::string(kHeader) + "\t/* never closed\n\tret;\n}\n",
             "bad.ptx:10:2: error: unterminated block comment '/*'"},
        Case{"stray_character", in_body("\tadd.s32 %r1, %r2, %r3 # comment;\n"),
             "bad.ptx:10:24: error: expected ',' or ';' after an operand, found '#'"},
        Case{"unknown_module_directive", ".version 8.7\n.target sm_90\n.address_size 64\n.bogus x;\n",
             "bad.ptx:4:1: error: unknown module-level directive '.bogus'"},
        Case{"register_redeclared", in_body("\t.reg .b32 %r1;\n"),
             "bad.ptx:10:12: error: redeclaration of register '%r1'"},
        Case{"setp_needs_predicate", in_body("\tsetp.lt.s32 %r1, %r2, %r3;\n"),
             "bad.ptx:10:14: error: operand 1 of 'setp' must be .pred, but register '%r1' is .b32"},
        Case{"mma_without_shape", in_body("\tmma.sync.aligned.row.col.f32.f16.f16.f32 {%f0}, {%r0}, {%r1}, {%f1};\n"),
             "bad.ptx:10:38: error: 'mma' needs a shape such as .m16n8k16"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(MalformedPtx, ReportsEveryErrorInTheFile) {
  std::string all = errors_of(in_body("\tfoo.s32 %r1;\n\tadd.s32 %r1, %r9, %r2;\n\tbra $Lmissing;\n"));
  EXPECT_NE(all.find("bad.ptx:10:2: error: unknown instruction 'foo'"), std::string::npos) << all;
  EXPECT_NE(all.find("bad.ptx:11:15: error: undeclared register '%r9'"), std::string::npos) << all;
  EXPECT_NE(all.find("bad.ptx:12:6: error: undefined label '$Lmissing'"), std::string::npos) << all;
}

TEST(MalformedPtx, MessageShowsTheLineAndACaret) {
  std::string all = errors_of(in_body("\tadd.s32 %r1, %r9, %r2;\n"));
  EXPECT_NE(all.find("\n  \tadd.s32 %r1, %r9, %r2;\n  \t             ^~~"), std::string::npos) << all;
}

TEST(MalformedPtx, MissingFileNamesThePath) {
  try {
    parse_ptx_file("/nonexistent/kernel.ptx");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/kernel.ptx: cannot read file"), std::string::npos);
  }
}

TEST(MalformedPtx, EveryPrefixOfACorpusFileFailsCleanly) {
  // Truncation anywhere must give an error (or a valid module), never a crash or a hang.
  std::string text = in_body("\tld.global.v4.f32 {%f0, %f1, %f0, %f1}, [%rd1+16];\n\t@!%p1 bra $L;\n$L:\n");
  for (size_t n = 0; n < text.size(); ++n) {
    try {
      parse_ptx(SourceText("cut.ptx", text.substr(0, n)));
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::BadInput);
    }
  }
}

}  // namespace
}  // namespace racer::ptx
