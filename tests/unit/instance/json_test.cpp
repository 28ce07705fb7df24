// Instances as JSON: what the TOML loader builds survives the trip through JSON unchanged (so a
// witness can carry its instance, and Python instances are the same Instance), and a malformed
// description is rejected with every problem named.
#include <gtest/gtest.h>

#include <filesystem>

#include "corpus_cases.hpp"
#include "instance/json.hpp"
#include "instance/load.hpp"
#include "support/content_hash.hpp"
#include "support/error.hpp"

namespace racer::instance {
namespace {

using nlohmann::json;

using testing::corpus_cases;

TEST(InstanceJson, EveryCorpusCaseRoundTrips) {
  size_t seen = 0;
  for (const auto& path : corpus_cases()) {
    SCOPED_TRACE(path.string());
    instance::Instance a = instance::load_instance(path.string());
    json j = instance_to_json(a);
    instance::Instance b = instance_from_json(j);
    EXPECT_EQ(instance_to_json(b), j);
    ASSERT_EQ(a.tensors.size(), b.tensors.size());
    for (size_t i = 0; i < a.tensors.size(); ++i) {
      EXPECT_EQ(a.tensors[i].shape, b.tensors[i].shape);
      EXPECT_EQ(a.tensors[i].strides, b.tensors[i].strides);
      EXPECT_EQ(a.tensors[i].dtype, b.tensors[i].dtype);
      EXPECT_EQ(a.tensors[i].init.index(), b.tensors[i].init.index());
    }
    ASSERT_EQ(a.a.launches.size(), b.a.launches.size());
    EXPECT_EQ(a.a.launches[0].args.size(), b.a.launches[0].args.size());
    EXPECT_FALSE(j["a"][0]["ptx_text"].get<std::string>().empty());
    EXPECT_EQ(j["a"][0]["param_types"].size(), a.a.launches[0].args.size());
    ++seen;
  }
  EXPECT_GE(seen, 40u);
}

TEST(InstanceJson, MissingPtxFileFallsBackToItsText) {
  json j = instance_to_json(instance::load_instance(std::string(RACER_SOURCE_DIR) + "/examples/vec_add_check.toml"));
  j["a"][0]["ptx"] = "/nonexistent/vec_add.ptx";
  instance::Instance inst = instance_from_json(j);
  EXPECT_TRUE(std::filesystem::is_regular_file(inst.a.launches[0].ptx));
  j["a"][0].erase("ptx_text");
  try {
    instance_from_json(j);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ptx file not found: /nonexistent/vec_add.ptx"), std::string::npos) << e.what();
  }
}

TEST(InstanceJson, EveryProblemIsReported) {
  json j = instance_to_json(instance::load_instance(std::string(RACER_SOURCE_DIR) + "/examples/vec_add_check.toml"));
  j["tensors"][0]["dtype"] = "f23";
  j["tensors"][1]["shape"] = {4, 0};
  j["outputs"] = {"nope"};
  j["b"][0]["args"][0] = {{"tensor", "ghost"}, {"access", "read"}};
  try {
    instance_from_json(j);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    for (const char* want : {"unknown dtype 'f23'", "every dimension must be positive, not 0",
                             "output 'nope' is not a declared tensor", "undeclared tensor 'ghost'"})
      EXPECT_NE(m.find(want), std::string::npos) << want << " not in " << m;
  }
  EXPECT_THROW(instance_from_json(json{{"name", "x"}}), Error);
}

TEST(ContentHash, IsStableAndSensitive) {
  EXPECT_EQ(content_hash("racer"), content_hash("racer"));
  EXPECT_EQ(content_hash("").size(), 32u);
  EXPECT_NE(content_hash("racer"), content_hash("Racer"));
  EXPECT_NE(content_hash(std::string("a\0", 2)), content_hash("a"));
}

}  // namespace
}  // namespace racer::instance
