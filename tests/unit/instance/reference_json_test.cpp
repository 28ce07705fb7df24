// A reference's graph as JSON (issue 21): a well-formed graph survives the round trip through an
// instance description, and every malformed one is bad input naming the node and what is wrong.
#include <gtest/gtest.h>

#include "instance/json.hpp"
#include "instance/reference_json.hpp"
#include "support/error.hpp"

namespace racer::instance {
namespace {

using nlohmann::json;

json description(json graph) {
  return {{"name", "r"},
          {"outputs", {"y"}},
          {"tensors", {{{"name", "x"}, {"shape", {2}}, {"dtype", "f32"}, {"init", "input"}},
                       {{"name", "y"}, {"shape", {2}}, {"dtype", "f32"}, {"init", "empty"}}}},
          {"a", {{{"ptx", RACER_SOURCE_DIR "/examples/vec_add.ptx"}, {"entry", "vec_add"}, {"grid", {1}}, {"block", {2}},
                  {"args", {{{"tensor", "x"}}, {{"tensor", "x"}}, {{"tensor", "y"}, {"access", "write"}}, {{"scalar", 2}}}}}}},
          {"reference", std::move(graph)}};
}

json graph(json nodes, json outputs = {{"y", {2, 3}}}) {
  return {{"function", "ref (refs.py:1)"}, {"nodes", std::move(nodes)}, {"outputs", std::move(outputs)},
          {"lines", {"refs.py:2"}}, {"output_lines", {{"y", {0, 0}}}}};
}

std::string error_of(json nodes, json outputs = {{"y", {2, 3}}}) {
  try {
    instance_from_json(description(graph(std::move(nodes), std::move(outputs))));
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    return e.what();
  }
  return "";
}

const json kGood = {{"in", "x", 0}, {"in", "x", 1}, {"exp", 0}, {"add", 1, 2}, {"c", "1/3"}, {"pow", 0, 2}};

TEST(ReferenceJson, RoundTripsThroughTheInstance) {
  instance::Instance inst = instance_from_json(description(graph(kGood, {{"y", {3, 5}}})));
  ASSERT_TRUE(inst.b.reference);
  EXPECT_TRUE(inst.b.launches.empty());
  const instance::Reference& ref = *inst.b.reference;
  ASSERT_EQ(ref.nodes.size(), 6u);
  EXPECT_EQ(ref.nodes[3].op, instance::RefOp::Add);
  EXPECT_EQ(ref.nodes[5].value, "2");
  EXPECT_EQ(ref.line_of(0, 1), "refs.py:2");
  json again = instance_to_json(inst);
  EXPECT_EQ(instance_to_json(instance_from_json(again))["reference"], again["reference"]);
}

TEST(ReferenceJson, MalformedGraphsAreBadInputNamingTheNode) {
  EXPECT_NE(error_of({{"in", "x", 0}, {"frobnicate", 0}}).find("node 1: unknown operation 'frobnicate'"), std::string::npos);
  EXPECT_NE(error_of({{"in", "x", 0}, {"exp", 1}}).find("node 1: operand 1 is not an earlier node"), std::string::npos);
  EXPECT_NE(error_of({{"in", "z", 0}}).find("reads undeclared tensor 'z'"), std::string::npos);
  EXPECT_NE(error_of({{"in", "x", 2}}).find("outside its shape"), std::string::npos);
  EXPECT_NE(error_of({{"in", "y", 0}}).find("which is empty"), std::string::npos);
  EXPECT_NE(error_of({{"in", "x", 0}, {"div", 0}}).find("takes 2 operands"), std::string::npos);
  EXPECT_NE(error_of(json::array({json::array({"c", "1/0"})})).find("is not a rational"), std::string::npos);
  EXPECT_NE(error_of({{"in", "x", 0}, {"pow", 0, "1/2"}}).find("is not an integer"), std::string::npos);
  EXPECT_NE(error_of(kGood, {{"y", {0}}}).find("output 'y' has 1 cells, the tensor 2"), std::string::npos);
  EXPECT_NE(error_of(kGood, {{"y", {0, 1}}, {"x", {0, 1}}}).find("'x', which is not an output"), std::string::npos);
  EXPECT_NE(error_of(kGood, json::object()).find("returns no output 'y'"), std::string::npos);
}

}  // namespace
}  // namespace racer::instance
