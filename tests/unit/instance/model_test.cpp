// The model's own arithmetic (sizes, strides, storage spans) and what a well-formed file
// loads into: exact number text, file order, resolved paths and source locations.
#include <gtest/gtest.h>

#include "instance/load.hpp"
#include "support/diagnostics.hpp"
#include "temp_dir.hpp"

namespace racer::instance {
namespace {

TEST(InstanceModel, DTypes) {
  EXPECT_EQ(dtype_bytes(DType::F64), 8u);
  EXPECT_EQ(dtype_bytes(DType::BF16), 2u);
  EXPECT_EQ(dtype_bytes(DType::FP8E4M3), 1u);
  EXPECT_EQ(dtype_bytes(DType::Bool), 1u);
  EXPECT_TRUE(dtype_is_float(DType::FP8E5M2));
  EXPECT_FALSE(dtype_is_float(DType::I8));
  for (std::string_view n : dtype_names()) EXPECT_EQ(dtype_name(*parse_dtype(n)), n);
  EXPECT_FALSE(parse_dtype("u32").has_value());  // not a tensor type in format 1
  EXPECT_EQ(dtype_int_bounds(DType::U8).hi, 255);
  EXPECT_EQ(dtype_int_bounds(DType::I16).lo, -32768);
}

TEST(InstanceModel, ScalarTypes) {
  for (std::string_view n : scalar_type_names()) EXPECT_EQ(scalar_type_name(*parse_scalar_type(n)), n);
  EXPECT_EQ(scalar_type_bytes(ScalarType::U64), 8u);
  EXPECT_TRUE(scalar_type_is_float(ScalarType::BF16));
  EXPECT_TRUE(scalar_type_is_signed(ScalarType::I8));
  EXPECT_FALSE(scalar_type_is_signed(ScalarType::U32));
  // Unsigned params accept the two's-complement spelling of negative numbers.
  IntBounds u32 = scalar_type_int_bounds(ScalarType::U32);
  EXPECT_EQ(u32.lo, -2147483648LL);
  EXPECT_EQ(u32.hi, 4294967295LL);
  EXPECT_EQ(scalar_type_int_bounds(ScalarType::I8).hi, 127);
}

TEST(InstanceModel, TensorStorage) {
  Tensor t;
  t.shape = {2, 3, 4};
  t.strides = Tensor::row_major_strides(t.shape);
  EXPECT_EQ(t.strides, (std::vector<int64_t>{12, 4, 1}));
  EXPECT_TRUE(t.contiguous());
  EXPECT_EQ(t.cell_count(), 24);
  EXPECT_EQ(t.storage_elements(), 24);
  t.shape = {2, 3};
  t.strides = {1, 2};  // column-major-ish with a gap: farthest cell at 1 + 4
  EXPECT_EQ(t.storage_elements(), 6);
  t.strides = {0, 1};  // broadcast rows: fewer storage cells than logical cells
  EXPECT_EQ(t.storage_elements(), 3);
  EXPECT_EQ(t.cell_count(), 6);
  t.dtype = DType::F16;
  EXPECT_EQ(t.storage_bytes(), 6);
}

class InstanceLoad : public ::testing::Test {
 protected:
  testing::TempDir dir;
  void SetUp() override {
    std::filesystem::create_directories(dir.path() / "ptx");
    dir.write("ptx/k.ptx", "// empty\n");
    std::filesystem::create_directories(dir.path() / "cases");
  }
};

constexpr const char* kRich = R"(name = "rich_1"
about = "every construct of format 1"
outputs = ["out", "acc"]

[tensors]
zz  = { shape = [2, 3], dtype = "f32", init = "input", range = [0.1, 1_000.5] }
aa  = { shape = [4], dtype = "i32", init = { values = [3, -100, 0x10, +7] } }
out = { shape = [2, 3], dtype = "f16", init = "empty", strides = [1, 2] }
acc = { shape = [1], dtype = "f64", init = { full = -2.50e-3 } }
z0  = { shape = [3], dtype = "bool", init = { values = [true, false, 1] } }
nn  = { shape = [1], dtype = "u8", init = "zeros" }

[[a.launch]]
ptx = "../ptx/k.ptx"
entry = "k_a"
grid = [2, 3]
block = [32, 2, 1]
shared_bytes = 1024
args = [{ read = "zz" }, { write = "out", offset = 1 }, { readwrite = "acc" }, 8, -1, 0.5, { f32 = 1e-5 }, { u32 = -1 }, { null = true }]

[[a.launch]]
ptx = "../ptx/k.ptx"
entry = "k_b"
grid = [1]
block = [1]
args = []

[[b.launch]]
ptx = "../ptx/k.ptx"
entry = "k_c"
grid = [1, 1, 3]
block = [4]
args = [{ read = "aa" }]

[expect]
verdict = "not_equivalent"
diagnostics = ["a:race", "b:oob_write"]
category = "race"
)";

TEST_F(InstanceLoad, EveryConstruct) {
  std::string path = dir.write("cases/rich.toml", kRich);
  Instance inst = load_instance(path);
  EXPECT_EQ(inst.name, "rich_1");
  EXPECT_EQ(inst.outputs, (std::vector<std::string>{"out", "acc"}));
  ASSERT_EQ(inst.tensors.size(), 6u);
  std::vector<std::string> names;
  for (const auto& t : inst.tensors) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"zz", "aa", "out", "acc", "z0", "nn"}));

  const Tensor& zz = inst.tensors[0];
  ASSERT_TRUE(zz.range.has_value());
  EXPECT_EQ(zz.range->lo.text, "0.1");  // the written decimal, not the double's expansion
  EXPECT_EQ(zz.range->hi.text, "1000.5");
  EXPECT_EQ(zz.loc.line, 6u);
  EXPECT_EQ(zz.loc.col, 1u);

  const auto& aa = std::get<InitValues>(inst.tensors[1].init).values;
  ASSERT_EQ(aa.size(), 4u);
  EXPECT_EQ(aa[1].text, "-100");
  EXPECT_EQ(aa[2].text, "16");
  EXPECT_EQ(aa[2].integer, 16);
  EXPECT_EQ(aa[3].text, "7");
  EXPECT_TRUE(aa[3].is_integer);

  const Tensor& out = inst.tensors[2];
  EXPECT_EQ(out.strides, (std::vector<int64_t>{1, 2}));
  EXPECT_FALSE(out.contiguous());
  EXPECT_EQ(out.storage_elements(), 6);

  const auto& full = std::get<InitFull>(inst.tensors[3].init).value;
  EXPECT_EQ(full.text, "-2.50e-3");
  EXPECT_FALSE(full.is_integer);
  EXPECT_DOUBLE_EQ(full.value, -2.5e-3);

  const auto& bools = std::get<InitValues>(inst.tensors[4].init).values;
  EXPECT_EQ(bools[0].integer, 1);
  EXPECT_EQ(bools[1].integer, 0);
  EXPECT_TRUE(std::holds_alternative<InitZeros>(inst.tensors[5].init));

  ASSERT_EQ(inst.a.launches.size(), 2u);
  const Launch& l = inst.a.launches[0];
  EXPECT_EQ(l.ptx, (dir.path() / "ptx" / "k.ptx").lexically_normal().string());
  EXPECT_EQ(l.entry, "k_a");
  EXPECT_EQ(l.grid, (std::array<uint32_t, 3>{2, 3, 1}));
  EXPECT_EQ(l.block, (std::array<uint32_t, 3>{32, 2, 1}));
  EXPECT_EQ(l.shared_bytes, 1024u);
  EXPECT_EQ(l.loc.line, 13u);
  EXPECT_EQ(l.entry_loc.line, 15u);
  EXPECT_EQ(l.entry_loc.col, 9u);
  ASSERT_EQ(l.args.size(), 9u);
  EXPECT_EQ(std::get<TensorRef>(l.args[0].value).access, Access::Read);
  EXPECT_EQ(std::get<TensorRef>(l.args[1].value).offset, 1);
  EXPECT_EQ(std::get<TensorRef>(l.args[2].value).access, Access::ReadWrite);
  EXPECT_EQ(std::get<Scalar>(l.args[3].value).number.integer, 8);
  EXPECT_FALSE(std::get<Scalar>(l.args[3].value).type.has_value());
  EXPECT_EQ(std::get<Scalar>(l.args[4].value).number.integer, -1);
  EXPECT_EQ(std::get<Scalar>(l.args[5].value).number.text, "0.5");
  const Scalar& eps = std::get<Scalar>(l.args[6].value);
  EXPECT_EQ(eps.type, ScalarType::F32);
  EXPECT_EQ(eps.number.text, "1e-5");
  EXPECT_EQ(std::get<Scalar>(l.args[7].value).type, ScalarType::U32);
  EXPECT_TRUE(std::holds_alternative<Null>(l.args[8].value));
  // Each arg knows its column, so a later layer can point at the one that does not fit.
  EXPECT_EQ(l.args[0].loc.line, 19u);
  EXPECT_EQ(l.args[0].loc.col, 9u);
  EXPECT_EQ(l.args[3].loc.col, 80u);

  EXPECT_TRUE(inst.a.launches[1].args.empty());
  EXPECT_EQ(inst.b.launches[0].grid, (std::array<uint32_t, 3>{1, 1, 3}));

  ASSERT_TRUE(inst.expect.has_value());
  EXPECT_EQ(inst.expect->verdict, Verdict::NotEquivalent);
  EXPECT_EQ(inst.expect->diagnostics, (std::vector<ExpectedDefect>{{'a', "race"}, {'b', "oob_write"}}));
  EXPECT_EQ(inst.expect->category, "race");
}

TEST_F(InstanceLoad, LaterLayersReportAtRecordedLocations) {
  std::string path = dir.write("cases/rich.toml", kRich);
  Instance inst = load_instance(path);
  Diagnostics diags;
  report(diags, inst, inst.a.launches[0].args_loc, "entry has 10 params but 9 args given");
  std::string text = diags.render();
  EXPECT_EQ(text.substr(0, text.find('\n')), path + ":19:8: error: entry has 10 params but 9 args given");
  EXPECT_NE(text.find("\n  args = [{ read"), std::string::npos);

  Instance built;  // made by code: no text, but the message still names the place
  built.source_path = "<python>";
  Diagnostics d2;
  report(d2, built, SourceLoc{}, "no such entry");
  EXPECT_EQ(d2.render(), "<python>:1:1: error: no such entry");
}

TEST_F(InstanceLoad, ExpectIsOptional) {
  std::string text = kRich;
  text = text.substr(0, text.find("[expect]"));
  Instance inst = load_instance(dir.write("cases/noexpect.toml", text));
  EXPECT_FALSE(inst.expect.has_value());
}

}  // namespace
}  // namespace racer::instance
