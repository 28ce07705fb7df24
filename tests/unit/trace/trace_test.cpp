// Trace records: every kind of tampering named in issue #7 is detected at the right record.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "support/error.hpp"
#include "trace/trace.hpp"
#include "trace_temp_dir.hpp"

namespace racer::trace {
namespace {

using testing::TraceTempDir;

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

void write_lines(const std::string& path, const std::vector<std::string>& lines) {
  std::ofstream out(path, std::ios::trunc);
  for (const auto& l : lines) out << l << "\n";
}

nlohmann::json measurement(int i) {
  return {{"contract", "gemm_f32"}, {"residual", exact_hex(0.001 * i)}, {"tolerance", exact_hex(0.5)},
          {"verdict", i % 3 ? "pass" : "fail"}, {"seed", i}};
}

struct TraceFile : ::testing::Test {
  TraceTempDir dir;
  std::string key = dir.path("k"), other = dir.path("other"), trace = dir.path("t.jsonl");
  void SetUp() override {
    Signer::generate(key);
    Signer::generate(other);
    Writer w(trace, Signer::load(key));
    for (int i = 0; i < 6; ++i) w.append(measurement(i));
  }
  VerifyResult check(bool every = false) { return verify(trace, PublicKey::load(key + ".pub"), {every}); }
};

TEST_F(TraceFile, UntouchedTraceVerifies) {
  for (bool every : {false, true}) {
    VerifyResult r = check(every);
    EXPECT_TRUE(r.ok) << r.reason;
    EXPECT_EQ(r.records, 6u);
    EXPECT_EQ(r.head_hash.size(), 64u);
  }
}

TEST_F(TraceFile, RecordsAreCanonicalAndCarryTheWriterFields) {
  auto lines = read_lines(trace);
  ASSERT_EQ(lines.size(), 6u);
  auto j = nlohmann::json::parse(lines[2]);
  EXPECT_EQ(j.dump(), lines[2]);
  EXPECT_EQ(j["seq"], 2);
  EXPECT_EQ(j["key"], PublicKey::load(key + ".pub").hex());
  EXPECT_EQ(j["residual"], "0x1.0624dd2f1a9fcp-9");
  EXPECT_EQ(nlohmann::json::parse(lines[0])["prev"], std::string(64, '0'));
}

TEST_F(TraceFile, EditedFieldIsNamedEvenWhenOnlyTheHeadSignatureIsChecked) {
  for (bool every : {false, true}) {
    auto lines = read_lines(trace);
    auto edited = lines;
    edited[3].replace(edited[3].find("\"verdict\":\"fail\""), 16, "\"verdict\":\"pass\"");
    ASSERT_NE(edited[3], lines[3]);
    write_lines(trace, edited);
    VerifyResult r = check(every);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.first_bad_record, 3u) << r.reason;
    EXPECT_NE(r.reason.find("signature"), std::string::npos) << r.reason;
    write_lines(trace, lines);
  }
}

TEST_F(TraceFile, EditedLastRecordIsNamed) {
  auto lines = read_lines(trace);
  lines[5].replace(lines[5].find("\"seed\":5"), 8, "\"seed\":7");
  write_lines(trace, lines);
  VerifyResult r = check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first_bad_record, 5u);
}

TEST_F(TraceFile, WhitespaceEditIsNotCanonical) {
  auto lines = read_lines(trace);
  lines[1].insert(1, " ");
  write_lines(trace, lines);
  VerifyResult r = check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first_bad_record, 1u);
  EXPECT_NE(r.reason.find("canonical"), std::string::npos) << r.reason;
}

TEST_F(TraceFile, RemovedRecordIsNamed) {
  auto lines = read_lines(trace);
  lines.erase(lines.begin() + 3);
  write_lines(trace, lines);
  VerifyResult r = check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first_bad_record, 3u);
  EXPECT_NE(r.reason.find("removed"), std::string::npos) << r.reason;
}

TEST_F(TraceFile, RemovedFirstRecordIsNamed) {
  auto lines = read_lines(trace);
  lines.erase(lines.begin());
  write_lines(trace, lines);
  VerifyResult r = check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first_bad_record, 0u);
}

TEST_F(TraceFile, ReorderedRecordsAreNamed) {
  auto lines = read_lines(trace);
  std::swap(lines[1], lines[4]);
  write_lines(trace, lines);
  VerifyResult r = check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first_bad_record, 1u);
  EXPECT_NE(r.reason.find("reordered"), std::string::npos) << r.reason;
}

TEST_F(TraceFile, DuplicatedRecordIsNamed) {
  auto lines = read_lines(trace);
  lines.insert(lines.begin() + 3, lines[2]);
  write_lines(trace, lines);
  VerifyResult r = check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first_bad_record, 3u);
}

TEST_F(TraceFile, RecordResignedByAnotherKeyIsNamed) {
  // The forger rewrites the whole trace from record 2 on with a valid chain, under their key.
  auto lines = read_lines(trace);
  std::string forged = dir.path("forged.jsonl");
  write_lines(forged, {lines[0], lines[1]});
  // Continue the chain as the forger would: the writer refuses (last record is not theirs),
  // so the forger builds records by hand; here: copy through a writer of their own on a file
  // whose first records they signed, then splice.
  {
    Writer w(dir.path("theirs.jsonl"), Signer::load(other));
    for (int i = 0; i < 4; ++i) w.append(measurement(i));
  }
  auto theirs = read_lines(dir.path("theirs.jsonl"));
  write_lines(trace, {lines[0], lines[1], theirs[2], theirs[3]});
  VerifyResult r = check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first_bad_record, 2u);
  EXPECT_NE(r.reason.find("another key"), std::string::npos) << r.reason;
  // A whole trace signed by another key fails at record 0.
  VerifyResult whole = verify(dir.path("theirs.jsonl"), PublicKey::load(key + ".pub"));
  EXPECT_FALSE(whole.ok);
  EXPECT_EQ(whole.first_bad_record, 0u);
}

TEST_F(TraceFile, TruncatedLineIsNamed) {
  std::ifstream in(trace);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  std::ofstream(trace, std::ios::trunc) << text.substr(0, text.size() - 20);
  VerifyResult r = check();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first_bad_record, 5u);
}

TEST_F(TraceFile, WriterContinuesTheChainAcrossRuns) {
  {
    Writer w(trace, Signer::load(key));
    EXPECT_EQ(w.records(), 6u);
    w.append(measurement(6));
  }
  VerifyResult r = check(true);
  EXPECT_TRUE(r.ok) << r.reason;
  EXPECT_EQ(r.records, 7u);
}

TEST_F(TraceFile, WriterRefusesToVouchForAForeignLastRecord) {
  EXPECT_THROW(Writer(trace, Signer::load(other)), Error);
  auto lines = read_lines(trace);
  lines[5].replace(lines[5].find("\"seed\":5"), 8, "\"seed\":7");
  write_lines(trace, lines);
  EXPECT_THROW(Writer(trace, Signer::load(key)), Error);
}

TEST_F(TraceFile, WriterRefusesFloatsAndItsOwnFieldNames) {
  Writer w(dir.path("new.jsonl"), Signer::load(key));
  EXPECT_THROW(w.append({{"residual", 0.5}}), Error);
  EXPECT_THROW(w.append({{"nested", {{"x", {1, 2.5}}}}}), Error);
  EXPECT_THROW(w.append({{"seq", 3}}), Error);
  EXPECT_THROW(w.append(nlohmann::json::array({1})), Error);
  EXPECT_EQ(w.records(), 0u);
}

TEST(ExactHex, RoundTripsExactly) {
  for (double v : {0.0, -0.0, 1.0, 3.0, 0.1, -2.5e-310, 1.7976931348623157e308, 6.02214076e23}) {
    std::string h = exact_hex(v);
    double back = parse_exact_hex(h);
    EXPECT_EQ(std::signbit(back), std::signbit(v));
    EXPECT_EQ(back, v) << h;
  }
  EXPECT_EQ(exact_hex(3.0), "0x1.8p+1");
  EXPECT_EQ(exact_hex(INFINITY), "inf");
  EXPECT_TRUE(std::isnan(parse_exact_hex("nan")));
  EXPECT_THROW(parse_exact_hex("1.5"), Error);
  EXPECT_THROW(parse_exact_hex("0x1.8p+1junk"), Error);
}

TEST(Keys, GarbledOrMissingKeyFilesAreLocatedErrors) {
  TraceTempDir dir;
  try {
    Signer::load(dir.path("missing"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos);
    EXPECT_EQ(e.code(), ExitCode::BadInput);
  }
  std::string bad = dir.write("bad", "abcd\n");
  try {
    Signer::load(bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(bad + ":1"), std::string::npos) << e.what();
  }
  std::string k = dir.path("k");
  Signer::generate(k);
  EXPECT_THROW(Signer::generate(k), Error);  // never overwrites a key
  std::ifstream in(k);
  std::string hex;
  in >> hex;
  hex[100] = hex[100] == '0' ? '1' : '0';  // the public half no longer matches the seed
  EXPECT_THROW(Signer::load(dir.write("edited", hex)), Error);
  EXPECT_THROW(PublicKey::load(dir.write("pub", "zz")), Error);
}

}  // namespace
}  // namespace racer::trace
