// racer trace verify: the chain, the key of every record, and the signatures.
#include <fstream>
#include <sstream>
#include <vector>

#include "support/error.hpp"
#include "trace/record_fields.hpp"
#include "trace/trace.hpp"

namespace racer::trace {
namespace {

struct Failure {
  uint64_t record;
  std::string reason;
};

// The lines of the file; a final line without its newline is kept (and later reported).
std::vector<std::string_view> split_lines(const std::string& text, bool& cut_off) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.emplace_back(text.data() + start, text.size() - start);
      cut_off = true;
      break;
    }
    lines.emplace_back(text.data() + start, nl - start);
    start = nl + 1;
  }
  return lines;
}

std::string seq_mismatch(uint64_t position, uint64_t seq, const std::vector<std::string_view>& lines) {
  std::string at = "seq " + std::to_string(seq) + " at position " + std::to_string(position);
  if (seq < position) return at + ": records were reordered or duplicated";
  std::string wanted = "\"seq\":" + std::to_string(position);
  for (size_t i = position + 1; i < lines.size(); ++i) {
    size_t p = lines[i].find(wanted);
    if (p != std::string::npos && p + wanted.size() < lines[i].size() &&
        (lines[i][p + wanted.size()] == ',' || lines[i][p + wanted.size()] == '}'))
      return at + ": records were reordered (record " + std::to_string(position) + " appears later)";
  }
  return at + ": record " + std::to_string(position) + (seq == position + 1 ? " was" : " onwards were") + " removed";
}

// Walks the records; checks a signature where `check_sig(i)` says so. Returns the first failure.
template <class CheckSig>
std::optional<Failure> walk(const std::vector<std::string_view>& lines, uint64_t end, bool cut_off, const PublicKey& trusted,
                            CheckSig check_sig, std::string& head_hash) {
  const std::string trusted_hex = trusted.hex();
  std::string prev_hash = kZeroHash;
  for (uint64_t i = 0; i < end; ++i) {
    std::string line(lines[i]);
    if (cut_off && i + 1 == lines.size()) return Failure{i, "the record is cut off (no final newline): edited or truncated"};
    ParsedRecord r = parse_record(line);
    if (!r.problem.empty()) return Failure{i, "the record is " + std::string(r.problem.rfind("not", 0) == 0 ? "" : "malformed: ") + r.problem + ": edited"};
    if (r.key_hex != trusted_hex) return Failure{i, "signed by another key (" + r.key_hex.substr(0, 16) + "..., trusted " + trusted_hex.substr(0, 16) + "...)"};
    if (check_sig(i) && !trusted.verify(r.signed_text, r.sig)) return Failure{i, "its signature does not match its contents: edited"};
    if (r.seq != i) return Failure{i, seq_mismatch(i, r.seq, lines)};
    if (r.prev_hex != prev_hash) return Failure{i, "its prev hash is not the hash of record " + std::to_string(i ? i - 1 : 0) + (i ? "" : " (zeros expected for the first record)") + ": the chain is broken (a record before it was edited or replaced)"};
    prev_hash = blake2b_256_hex(line);
  }
  head_hash = prev_hash;
  return std::nullopt;
}

}  // namespace

VerifyResult verify(const std::string& trace_path, const PublicKey& trusted) { return verify(trace_path, trusted, {}); }

VerifyResult verify(const std::string& trace_path, const PublicKey& trusted, const VerifyOptions& options) {
  std::ifstream in(trace_path, std::ios::binary);
  if (!in) throw Error(ExitCode::BadInput, trace_path + ": cannot read the trace file");
  std::stringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  bool cut_off = false;
  const std::vector<std::string_view> lines = split_lines(text, cut_off);
  VerifyResult result{true, 0, "", lines.size(), kZeroHash};
  const uint64_t last = lines.empty() ? 0 : lines.size() - 1;
  std::optional<Failure> f = walk(lines, lines.size(), cut_off, trusted, [&](uint64_t i) { return options.every_signature || i == last; }, result.head_hash);
  if (f && !options.every_signature) {
    // Name the first bad record exactly: an edit before the failure shows up as a bad signature.
    std::string unused;
    auto exact = walk(lines, f->record + 1, cut_off, trusted, [](uint64_t) { return true; }, unused);
    if (exact && exact->record <= f->record) f = exact;
  }
  if (f) {
    result.ok = false;
    result.first_bad_record = f->record;
    result.reason = "record " + std::to_string(f->record) + " (line " + std::to_string(f->record + 1) + "): " + f->reason;
    result.head_hash.clear();
  }
  return result;
}

}  // namespace racer::trace
