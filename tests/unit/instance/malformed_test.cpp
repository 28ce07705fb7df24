// Malformed instance files: each must be refused with racer::Error(BadInput) whose message
// names the exact place (file:line:col) and says what is wrong, every problem of the file at
// once, and nothing a user can write may crash the loader.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "instance/load.hpp"
#include "support/error.hpp"
#include "temp_dir.hpp"

namespace racer::instance {
namespace {

// A valid instance; each case below breaks it in one place.
constexpr const char* kBase = R"(name = "t"
about = "x"
outputs = ["out"]

[tensors]
x = { shape = [4], dtype = "f32", init = "input" }
out = { shape = [4], dtype = "f32", init = "empty" }

[[a.launch]]
ptx = "k.ptx"
entry = "k"
grid = [1]
block = [4]
args = [{ read = "x" }, { write = "out" }, 4]

[[b.launch]]
ptx = "k.ptx"
entry = "k"
grid = [1]
block = [4]
args = [{ read = "x" }, { write = "out" }, 4]

[expect]
verdict = "equivalent"
diagnostics = []
category = "none"
)";

struct Case {
  const char* label;
  const char* old_text;  // replaced (first occurrence) in kBase
  const char* new_text;
  std::vector<std::string> errors;  // "line:col: error: message"; @DIR@ is the scratch directory
};

const std::vector<Case> kCases = {
    {"unknown_key_typo", "x = { shape", "x = { shap", {"6:7: error: unknown key 'shap' in tensor 'x'; did you mean 'shape'?", "6:5: error: tensor 'x' is missing required key 'shape'"}},
    {"missing_required_key", "x = { shape = [4], dtype = \"f32\", ", "x = { shape = [4], ", {"6:5: error: tensor 'x' is missing required key 'dtype'"}},
    {"wrong_value_type", "x = { shape = [4]", "x = { shape = \"4\"", {"6:15: error: 'shape' must be an array, not a string"}},
    {"unknown_dtype", "x = { shape = [4], dtype = \"f32\"", "x = { shape = [4], dtype = \"f31\"", {"6:28: error: unknown dtype 'f31'; did you mean 'f32'?"}},
    {"unknown_dtype_listed", "x = { shape = [4], dtype = \"f32\"", "x = { shape = [4], dtype = \"float\"", {"6:28: error: unknown dtype 'float'; expected one of f64, f32, f16, bf16, fp8e4m3, fp8e5m2, i64, i32, i16, i8, u8, bool"}},
    {"empty_shape", "x = { shape = [4]", "x = { shape = []", {"6:15: error: 'shape' must have at least one dimension"}},
    {"non_positive_shape", "x = { shape = [4]", "x = { shape = [2, 0]", {"6:19: error: shape entry must be positive, not 0"}},
    {"values_count", "init = \"empty\"", "init = { values = [1, 2, 3] }", {"7:55: error: 'values' has 3 numbers but tensor 'out' has 4 cells"}},
    {"range_reversed", "init = \"input\" }", "init = \"input\", range = [2.5, 1] }", {"6:59: error: range lower bound 2.5 is greater than upper bound 1"}},
    {"range_on_non_input", "init = \"empty\" }", "init = \"empty\", range = [0, 1] }", {"7:61: error: 'range' constrains \"input\" cells, but tensor 'out' is empty"}},
    {"unknown_init", "init = \"input\"", "init = \"inputs\"", {"6:42: error: unknown init 'inputs'; did you mean 'input'?"}},
    {"unknown_init_table", "init = \"input\"", "init = { fill = 1 }", {"6:44: error: unknown key 'fill' in the init of tensor 'x'; did you mean 'full'?"}},
    {"output_undeclared", "outputs = [\"out\"]", "outputs = [\"outt\"]", {"3:12: error: output 'outt' is not a declared tensor; did you mean 'out'?"}},
    {"output_twice", "outputs = [\"out\"]", "outputs = [\"out\", \"out\"]", {"3:19: error: output 'out' is listed twice"}},
    {"arg_undeclared_tensor", "{ read = \"x\" }", "{ read = \"q9\" }", {"14:18: error: argument names undeclared tensor 'q9'"}},
    {"arg_offset_outside", "{ read = \"x\" }", "{ read = \"x\", offset = 4 }", {"14:32: error: offset 4 is outside tensor 'x' (4 elements)"}},
    {"grid_four_dims", "grid = [1]", "grid = [1, 1, 1, 1]", {"12:8: error: 'grid' must have 1 to 3 dimensions, not 4"}},
    {"grid_zero", "grid = [1]", "grid = [0]", {"12:9: error: grid dimension must be positive, not 0"}},
    {"grid_float", "grid = [1]", "grid = [1.5]", {"12:9: error: grid dimension must be an integer, not a float"}},
    {"block_too_many_threads", "block = [4]", "block = [64, 32]", {"13:9: error: block has 2048 threads; a CTA has at most 1024"}},
    {"block_z_limit", "block = [4]", "block = [1, 1, 65]", {"13:16: error: block z dimension 65 exceeds the CUDA limit of 64"}},
    {"bad_name", "name = \"t\"", "name = \"Vec-Add\"", {"1:8: error: name 'Vec-Add' must be made of a-z, 0-9 and _"}},
    {"unknown_verdict", "verdict = \"equivalent\"", "verdict = \"equal\"", {"24:11: error: unknown verdict 'equal'; expected one of equivalent, inequivalent, not_equivalent, equal_up_to_rounding"}},
    {"unknown_diag_kind", "diagnostics = []", "diagnostics = [\"a:oob\"]", {"25:16: error: unknown diagnostic kind 'oob'; expected one of oob_write, oob_read, uninit_read, race, access_violation, unmapped_read"}},
    {"diag_bad_program", "diagnostics = []", "diagnostics = [\"c:race\"]", {"25:16: error: diagnostic 'c:race' must be program:kind with program a or b, e.g. \"a:race\""}},
    {"unknown_category", "category = \"none\"", "category = \"nonee\"", {"26:12: error: unknown category 'nonee'; did you mean 'none'?"}},
    {"ptx_missing", "ptx = \"k.ptx\"", "ptx = \"nope.ptx\"", {"10:7: error: ptx file not found: @DIR@/nope.ptx"}},
    {"arg_key_typo", "{ read = \"x\" }", "{ reed = \"x\" }", {"14:11: error: unknown key 'reed' in an argument; did you mean 'read'?"}},
    {"arg_two_kinds", "{ read = \"x\" }", "{ read = \"x\", write = \"x\" }", {"14:9: error: argument has both 'read' and 'write'; give exactly one"}},
    {"arg_bare_tensor_name", "{ read = \"x\" }", "\"x\"", {"14:9: error: an argument must be a number or a table; for tensor 'x' write { read = \"x\" }, { write = \"x\" } or { readwrite = \"x\" }"}},
    {"arg_scalar_does_not_fit", "{ write = \"out\" }, 4]", "{ write = \"out\" }, { u8 = 300 }]", {"14:51: error: value 300 does not fit u8 (-128 to 255)"}},
    {"arg_scalar_undeclared_tensor", "{ write = \"out\" }, 4]", "{ write = \"out\" }, { f32 = \"alpha\" }]", {"14:52: error: scalar argument names undeclared tensor 'alpha'"}},
    {"arg_null_false", "{ write = \"out\" }, 4]", "{ write = \"out\" }, { null = false }]", {"14:53: error: 'null' must be true"}},
    {"arg_offset_on_scalar", "{ write = \"out\" }, 4]", "{ write = \"out\" }, { i32 = 4, offset = 1 }]", {"14:64: error: 'offset' applies only to a tensor argument"}},
    {"top_level_typo", "about = \"x\"", "abut = \"x\"", {"2:1: error: unknown key 'abut' in the instance; did you mean 'about'?"}},
    {"launch_key_typo", "entry = \"k\"", "entri = \"k\"", {"11:1: error: unknown key 'entri' in a launch of program 'a'; did you mean 'entry'?", "9:1: error: a launch of program 'a' is missing required key 'entry'"}},
    {"launch_not_array", "[[a.launch]]", "[a.launch]", {"9:1: error: 'a.launch' must be an array of tables, written [[a.launch]]"}},
    {"shared_bytes_negative", "block = [4]\nargs", "block = [4]\nshared_bytes = -8\nargs", {"14:16: error: 'shared_bytes' must not be negative"}},
    {"strides_count", "x = { shape = [4]", "x = { shape = [4], strides = [1, 1]", {"6:30: error: 'strides' has 2 entries but 'shape' has 1"}},
    {"full_not_integer", "out = { shape = [4], dtype = \"f32\", init = \"empty\" }", "out = { shape = [4], dtype = \"i32\", init = { full = 0.5 } }", {"7:53: error: value 0.5 does not fit i32: not an integer"}},
    {"nan_value", "init = \"empty\"", "init = { full = nan }", {"7:53: error: 'full' must be a number, not nan"}},
    {"tensor_not_table", "x = { shape = [4], dtype = \"f32\", init = \"input\" }", "x = \"f32\"", {"6:5: error: tensor 'x' must be a table such as { shape = [4], dtype = \"f32\", init = \"input\" }, not a string"}},
    {"tensor_bad_name", "x = { shape", "\"x y\" = { shape", {"6:1: error: tensor name 'x y' must be letters, digits and _, not starting with a digit", "14:18: error: argument names undeclared tensor 'x'", "21:18: error: argument names undeclared tensor 'x'"}},
    {"columns_in_bytes_after_utf8", "x = { shape = [4]", "x = { q = \"\u00e9\", shape = [0]", {"6:7: error: unknown key 'q' in tensor 'x'; expected one of shape, dtype, init, strides, range", "6:26: error: shape entry must be positive, not 0"}},
};

std::string replace_first(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("test case does not match the base: " + from);
  return text.replace(at, from.size(), to);
}

// The "path:line:col: error: ..." lines of a rendered error, without the quoted source lines.
std::vector<std::string> error_lines(const std::string& rendered, const std::string& path) {
  std::vector<std::string> out;
  std::istringstream in(rendered);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(path + ":", 0) == 0) out.push_back(line.substr(path.size() + 1));
  return out;
}

class InstanceMalformed : public ::testing::Test {
 protected:
  testing::TempDir dir;
  void SetUp() override { dir.write("k.ptx", "// empty\n"); }

  // Loads `text`; returns the rendered error, or fails the test if it loaded or threw anything else.
  std::string refusal(const std::string& path, const std::string& text) {
    dir.write(std::filesystem::path(path).filename().string(), text);
    try {
      load_instance(path);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::BadInput);
      return e.what();
    }
    ADD_FAILURE() << "loaded without error:\n" << text;
    return "";
  }
  std::string path(const std::string& name) const { return (dir.path() / name).string(); }
};

TEST_F(InstanceMalformed, BaseLoads) {
  dir.write("base.toml", kBase);
  EXPECT_NO_THROW(load_instance(path("base.toml")));
}

TEST_F(InstanceMalformed, EachCaseGivesItsMessage) {
  ASSERT_GE(kCases.size(), 15u);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.label);
    std::string p = path(std::string(c.label) + ".toml");
    std::string rendered = refusal(p, replace_first(kBase, c.old_text, c.new_text));
    std::vector<std::string> expected;
    for (std::string e : c.errors) {
      size_t at = e.find("@DIR@");
      if (at != std::string::npos) e.replace(at, 5, dir.path().string());
      expected.push_back(e);
    }
    EXPECT_EQ(error_lines(rendered, p), expected) << rendered;
  }
}

TEST_F(InstanceMalformed, RendersTheLineWithACaret) {
  std::string p = path("caret.toml");
  std::string rendered = refusal(p, replace_first(kBase, "dtype = \"f32\"", "dtype = \"f31\""));
  EXPECT_EQ(rendered, p + ":6:28: error: unknown dtype 'f31'; did you mean 'f32'?\n"
                          "  x = { shape = [4], dtype = \"f31\", init = \"input\" }\n"
                          "                             ^~~~~");
}

TEST_F(InstanceMalformed, TomlSyntaxError) {
  std::string p = path("syntax.toml");
  std::string rendered = refusal(p, replace_first(kBase, "grid = [1]", "grid = [1"));
  EXPECT_EQ(error_lines(rendered, p),
            std::vector<std::string>{"13:1: error: invalid TOML: Error while parsing array: expected comma or closing "
                                     "']', saw 'b'"});
}

TEST_F(InstanceMalformed, DuplicateKeyIsASyntaxError) {
  std::string p = path("dup.toml");
  std::string rendered = refusal(p, replace_first(kBase, "entry = \"k\"", "entry = \"k\"\nentry = \"j\""));
  EXPECT_EQ(error_lines(rendered, p),
            std::vector<std::string>{"12:9: error: invalid TOML: Error while parsing key-value pair: cannot redefine "
                                     "existing string 'entry'"});
}

TEST_F(InstanceMalformed, MissingProgram) {
  std::string text = kBase;
  size_t b = text.find("[[b.launch]]"), e = text.find("[expect]");
  text.erase(b, e - b);
  std::string p = path("nob.toml");
  EXPECT_EQ(error_lines(refusal(p, text), p),
            std::vector<std::string>{"1:1: error: the instance is missing required key 'b'"});
}

TEST_F(InstanceMalformed, EmptyFileListsEveryMissingKey) {
  std::string p = path("empty.toml");
  EXPECT_EQ(error_lines(refusal(p, ""), p),
            (std::vector<std::string>{"1:1: error: the instance is missing required key 'name'",
                                      "1:1: error: the instance is missing required key 'tensors'",
                                      "1:1: error: the instance is missing required key 'outputs'",
                                      "1:1: error: the instance is missing required key 'a'",
                                      "1:1: error: the instance is missing required key 'b'"}));
}

TEST_F(InstanceMalformed, CollectsEveryError) {
  std::string text = replace_first(kBase, "dtype = \"f32\"", "dtype = \"f31\"");
  text = replace_first(text, "grid = [1]", "grid = [0]");
  text = replace_first(text, "{ write = \"out\" }", "{ write = \"ot\" }");
  text = replace_first(text, "verdict = \"equivalent\"", "verdict = \"same\"");
  std::string p = path("many.toml");
  EXPECT_EQ(error_lines(refusal(p, text), p),
            (std::vector<std::string>{"6:28: error: unknown dtype 'f31'; did you mean 'f32'?",
                                      "12:9: error: grid dimension must be positive, not 0",
                                      "14:35: error: argument names undeclared tensor 'ot'; did you mean 'out'?",
                                      "24:11: error: unknown verdict 'same'; expected one of equivalent, inequivalent, "
                                      "not_equivalent, equal_up_to_rounding"}));
}

TEST_F(InstanceMalformed, WindowsLineEndingsKeepLocations) {
  std::string text;
  for (char c : replace_first(kBase, "grid = [1]", "grid = [0]")) {
    if (c == '\n') text += '\r';
    text += c;
  }
  std::string p = path("crlf.toml");
  EXPECT_EQ(error_lines(refusal(p, text), p),
            std::vector<std::string>{"12:9: error: grid dimension must be positive, not 0"});
}

TEST_F(InstanceMalformed, UnreadableFile) {
  try {
    load_instance(path("absent.toml"));
    FAIL() << "loaded a file that does not exist";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_NE(std::string(e.what()).find("absent.toml: cannot read file"), std::string::npos) << e.what();
  }
}

// Whatever the bytes, the loader answers with an instance or a BadInput error.
TEST_F(InstanceMalformed, NoInputCrashes) {
  const std::string base = kBase;
  auto survives = [&](const std::string& text) {
    std::string p = dir.write("fuzz.toml", text);
    try {
      load_instance(p);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::BadInput);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "threw " << e.what() << " for:\n" << text;
    }
  };
  for (size_t n = 0; n < base.size(); n += 3) survives(base.substr(0, n));
  std::mt19937 rng(12345);
  const std::string alphabet = "[]{}=,\"'.:-+_0129aex \n\t#\xc3\xa9\xff";
  for (int i = 0; i < 1500; ++i) {
    std::string text = base;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits; ++k) {
      size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(at, 1 + rng() % 8); break;
        default: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
    }
    survives(text);
  }
}

}  // namespace
}  // namespace racer::instance
