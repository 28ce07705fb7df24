// The fast reader of canonical lines agrees with the full parse-and-redump on every line:
// it may only ever say "unsure" where they would differ, never accept what the slow path refuses.
#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include "trace/record_fields.hpp"
#include "trace/trace.hpp"
#include "trace_temp_dir.hpp"

namespace racer::trace {
namespace {

std::vector<std::string> written_records() {
  testing::TraceTempDir dir;
  std::string key = dir.path("k"), path = dir.path("t.jsonl");
  Signer::generate(key);
  {
    Writer w(path, Signer::load(key));
    w.append({{"a", 1}});
    w.append({{"nested", {{"z", {1, -2, nullptr, true, false}}, {"a", "x\ny\t\"q\"\\"}}}, {"zz", -9000000000}});
    w.append({{"ctl", std::string("bell\x07 nul") + '\0' + "end"}, {"unicode", "caf\xc3\xa9"}, {"empty", nlohmann::json::object()}});
    w.append({{"tail", "after sig"}, {"\xc3\xa9", 1}});
    w.append({{"aaa", "before everything"}});
  }
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

void expect_agree(const std::string& line) {
  ParsedRecord fast = parse_record(line), slow = parse_record_slow(line);
  ASSERT_EQ(fast.problem.empty(), slow.problem.empty()) << line << "\nfast: " << fast.problem << "\nslow: " << slow.problem;
  if (!fast.problem.empty()) return;
  EXPECT_EQ(fast.seq, slow.seq);
  EXPECT_EQ(fast.prev_hex, slow.prev_hex);
  EXPECT_EQ(fast.key_hex, slow.key_hex);
  EXPECT_EQ(fast.sig, slow.sig);
  EXPECT_EQ(fast.signed_text, slow.signed_text) << line;
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  size_t p = s.find(from);
  if (p != std::string::npos) s.replace(p, from.size(), to);
  return s;
}

TEST(CanonicalScan, AgreesWithTheFullParseOnWrittenAndEditedLines) {
  std::vector<std::string> lines = written_records();
  ASSERT_EQ(lines.size(), 5u);
  for (const std::string& l : lines) {
    expect_agree(l);
    EXPECT_TRUE(parse_record(l).problem.empty()) << l;
    expect_agree(" " + l);
    expect_agree(l + " ");
    expect_agree(l + "x");
    expect_agree(l.substr(0, l.size() - 1));
    expect_agree(replaced(l, ":", ": "));
    expect_agree(replaced(l, ",", " ,"));
    expect_agree(replaced(l, "\"seq\":", "\"seq\":0"));
    expect_agree(replaced(l, "\"seq\":", "\"seq\":-"));
    expect_agree(replaced(l, "\"seq\":", "\"seq\":1.5,\"seq2\":"));
    expect_agree(replaced(l, "{\"a\"", "{\"b\":1,\"a\""));      // unsorted
    expect_agree(replaced(l, "{\"a\"", "{\"a\":1,\"a\""));      // duplicated
    expect_agree(replaced(l, "\\u0007", "\\u0007"));
    expect_agree(replaced(l, "\\u0007", "\\u0007"));
    expect_agree(replaced(l, "\\u0007", "\\U0007"));
    expect_agree(replaced(l, "\\u0007", "\\u001F"));
    expect_agree(replaced(l, "\\n", "\\u000a"));
    expect_agree(replaced(l, "\\n", "\\/"));
    expect_agree(replaced(l, "-2", "-0"));
    expect_agree(replaced(l, "-2", "2e0"));
    expect_agree(replaced(l, "true", "True"));
    expect_agree(replaced(l, "null", "nul"));
    expect_agree(replaced(l, "\"prev\":\"", "\"prev\":\"A"));
    expect_agree(replaced(l, "\"sig\":\"", "\"sig\":\"g"));
  }
}

TEST(CanonicalScan, NonObjectsAndEmptyLinesAreRefused) {
  for (std::string l : {"", "[]", "1", "\"x\"", "{", "{}", "{\"a\":}"}) {
    ParsedRecord r = parse_record(l);
    EXPECT_FALSE(r.problem.empty()) << l;
    EXPECT_EQ(r.problem.empty(), parse_record_slow(l).problem.empty()) << l;
  }
}

}  // namespace
}  // namespace racer::trace
