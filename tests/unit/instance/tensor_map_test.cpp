// [tensor_maps] and { tensor_map = ... } arguments (TMA): what loads, and the located errors.
#include <gtest/gtest.h>

#include "instance/load.hpp"
#include "support/error.hpp"
#include "temp_dir.hpp"

namespace racer::instance {
namespace {

std::string instance_with(const std::string& maps, const std::string& arg) {
  return R"(name = "t"
outputs = ["out"]

[tensors]
x = { shape = [8, 16], dtype = "f16", init = "input" }
out = { shape = [4], dtype = "f32", init = "empty" }

[tensor_maps]
)" + maps + R"(

[[a.launch]]
ptx = "k.ptx"
entry = "k"
grid = [1]
block = [4]
args = [)" + arg + R"(, { write = "out" }]

[[b.launch]]
ptx = "k.ptx"
entry = "k"
grid = [1]
block = [4]
args = [)" + arg + R"(, { write = "out" }]
)";
}

class TensorMaps : public ::testing::Test {
 protected:
  testing::TempDir dir;
  void SetUp() override { dir.write("k.ptx", "// empty\n"); }
  std::string path() const { return (dir.path() / "case.toml").string(); }
  std::string error_of(const std::string& text) {
    dir.write("case.toml", text);
    try {
      load_instance(path());
    } catch (const Error& e) {
      return e.what();
    }
    ADD_FAILURE() << "loaded without error";
    return "";
  }
};

TEST_F(TensorMaps, LoadsMapsAndArguments) {
  dir.write("case.toml", instance_with(R"(tm = { tensor = "x", box = [4, 16], swizzle = "32B" })", R"({ tensor_map = "tm" })"));
  Instance inst = load_instance(path());
  ASSERT_EQ(inst.tensor_maps.size(), 1u);
  EXPECT_EQ(inst.tensor_maps[0].tensor, "x");
  EXPECT_EQ(inst.tensor_maps[0].box, (std::vector<int64_t>{4, 16}));
  EXPECT_EQ(inst.tensor_maps[0].swizzle_bytes, 32u);
  const auto* ref = std::get_if<TensorMapRef>(&inst.a.launches.at(0).args.at(0).value);
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ(ref->map, "tm");
}

TEST_F(TensorMaps, ErrorsNameTheirPlace) {
  std::string p = path();
  std::string e = error_of(instance_with(R"(tm = { tensor = "y", box = [4, 300], swizzle = "16B" })", R"({ tensor_map = "tn" })"));
  EXPECT_NE(e.find(p + ":9:17: error: tensor map names undeclared tensor 'y'"), std::string::npos) << e;
  EXPECT_NE(e.find("box dimension 300 must be in 1..256"), std::string::npos) << e;
  EXPECT_NE(e.find("swizzle must be one of none, 32B, 64B, 128B"), std::string::npos) << e;
  EXPECT_NE(e.find("argument names undeclared tensor map 'tn'; did you mean 'tm'?"), std::string::npos) << e;
  e = error_of(instance_with(R"(tm = { tensor = "x", box = [16] })", R"({ tensor_map = "tm" })"));
  EXPECT_NE(e.find("box has 1 dimensions, tensor 'x' has 2"), std::string::npos) << e;
}

TEST_F(TensorMaps, MapsTheDriverWouldRejectAreErrorsAtTheirKey) {
  std::string p = path();
  // cuTensorMapEncodeTiled's rules: box rows and tensor strides in 16-byte multiples.
  std::string e = error_of(instance_with(R"(tm = { tensor = "x", box = [4, 4] })", R"({ tensor_map = "tm" })"));
  EXPECT_NE(e.find(p + ":9:28: error: the box's innermost dimension is 8 bytes; TMA needs a multiple of 16 bytes"),
            std::string::npos) << e;
  std::string strided = instance_with(R"(tm = { tensor = "x", box = [4, 16] })", R"({ tensor_map = "tm" })");
  const std::string plain = "init = \"input\" }";
  strided.replace(strided.find(plain), plain.size(), "init = \"input\", strides = [20, 1] }");
  e = error_of(strided);
  EXPECT_NE(e.find("tensor 'x' has a stride of 40 bytes in dimension 0; a tensor map needs strides that are multiples of 16 bytes"),
            std::string::npos) << e;
}

}  // namespace
}  // namespace racer::instance
