#include <fstream>
#include <sstream>

#include "support/error.hpp"
#include "trace/canonical.hpp"
#include "trace/record_fields.hpp"
#include "trace/trace.hpp"

namespace racer::trace {
namespace {

[[noreturn]] void refuse(const std::string& where, const std::string& what) {
  throw Error(ExitCode::BadInput, where + ": " + what);
}

}  // namespace

Writer::Writer(std::string trace_path, Signer signer)
    : path_(std::move(trace_path)), signer_(std::move(signer)), prev_hash_hex_(kZeroHash) {
  std::ifstream in(path_, std::ios::binary);
  if (!in) return;  // a new trace
  std::stringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  if (text.empty()) return;
  if (text.back() != '\n') refuse(path_, "the last record is cut off (no final newline); refusing to continue this trace");
  size_t begin = text.rfind('\n', text.size() - 2);
  begin = begin == std::string::npos ? 0 : begin + 1;
  const std::string last = text.substr(begin, text.size() - 1 - begin);
  uint64_t line_no = 0;
  for (size_t i = 0; i < begin; ++i) line_no += text[i] == '\n';
  const std::string where = path_ + ":" + std::to_string(line_no + 1);
  // Continuing the chain signs over the last record's hash: vouch only for our own record.
  ParsedRecord r = parse_record(last);
  if (!r.problem.empty()) refuse(where, r.problem + "; refusing to continue this trace");
  if (r.key_hex != signer_.public_key().hex()) refuse(where, "the last record is signed by another key; refusing to continue this trace");
  if (!signer_.public_key().verify(r.signed_text, r.sig)) refuse(where, "the last record's signature does not match it; refusing to continue this trace");
  if (r.seq != line_no) refuse(where, "the last record's seq is " + std::to_string(r.seq) + ", not its position " + std::to_string(line_no) + "; refusing to continue this trace");
  next_seq_ = r.seq + 1;
  prev_hash_hex_ = blake2b_256_hex(last);
}

void Writer::append(const nlohmann::json& fields) {
  if (!fields.is_object()) refuse(path_, "a trace record's fields must be a JSON object");
  for (const char* reserved : {"seq", "prev", "key", "sig"})
    if (fields.contains(reserved)) refuse(path_, std::string("the field name '") + reserved + "' is the trace writer's own");
  if (std::string f = first_float(fields); !f.empty())
    refuse(path_, "trace field " + f + " is a JSON float; write it as a string with trace::exact_hex");
  nlohmann::json record = fields;
  record["seq"] = next_seq_;
  record["prev"] = prev_hash_hex_;
  record["key"] = signer_.public_key().hex();
  std::optional<std::string> unsigned_text = canonical_text(record);
  if (!unsigned_text) refuse(path_, "a trace record field holds a string that is not valid UTF-8");
  auto sig = signer_.sign(*unsigned_text);
  record["sig"] = to_hex(sig.data(), sig.size());
  const std::string line = *canonical_text(record);
  if (!out_.is_open()) {
    out_.open(path_, std::ios::binary | std::ios::app);
    if (!out_) refuse(path_, "cannot open the trace file for appending");
  }
  out_ << line << '\n';
  out_.flush();
  if (!out_) refuse(path_, "cannot append to the trace file");
  prev_hash_hex_ = blake2b_256_hex(line);
  ++next_seq_;
}

}  // namespace racer::trace
