// racer trace verify: the chain, the key of every record, and the signatures.
#include <algorithm>
#include <fstream>
#include <thread>
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

struct Scanned {
  ParsedRecord record;  // without signed_text
  std::string hash;     // BLAKE2b-256 hex of the line
};

// Parsing and hashing are independent per record: spread them over the cores.
std::vector<Scanned> scan_all(const std::vector<std::string_view>& lines) {
  std::vector<Scanned> out(lines.size());
  unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  if (lines.size() < 4096) workers = 1;
  auto work = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      std::string line(lines[i]);
      out[i].record = parse_record(line, false);
      out[i].hash = blake2b_256_hex(line);
    }
  };
  std::vector<std::thread> threads;
  size_t per = (lines.size() + workers - 1) / workers;
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work, std::min(lines.size(), w * per), std::min(lines.size(), (w + 1) * per));
  work(0, std::min(lines.size(), per));
  for (auto& t : threads) t.join();
  return out;
}

// Walks the records up to `end`; checks a signature where `check_sig(i)` says so.
template <class CheckSig>
std::optional<Failure> walk(const std::vector<std::string_view>& lines, const std::vector<Scanned>& scanned, uint64_t end,
                            bool cut_off, const PublicKey& trusted, CheckSig check_sig, std::string& head_hash) {
  const std::string trusted_hex = trusted.hex();
  std::string prev_hash = kZeroHash;
  for (uint64_t i = 0; i < end; ++i) {
    if (cut_off && i + 1 == lines.size()) return Failure{i, "the record is cut off (no final newline): edited or truncated"};
    const ParsedRecord& r = scanned[i].record;
    if (!r.problem.empty()) return Failure{i, "the record is " + std::string(r.problem.rfind("not", 0) == 0 ? "" : "malformed: ") + r.problem + ": edited"};
    if (r.key_hex != trusted_hex) return Failure{i, "signed by another key (" + r.key_hex.substr(0, 16) + "..., trusted " + trusted_hex.substr(0, 16) + "...)"};
    if (check_sig(i)) {
      ParsedRecord full = parse_record(std::string(lines[i]), true);
      if (!trusted.verify(full.signed_text, full.sig)) return Failure{i, "its signature does not match its contents: edited"};
    }
    if (r.seq != i) return Failure{i, seq_mismatch(i, r.seq, lines)};
    if (r.prev_hex != prev_hash) return Failure{i, "its prev hash is not the hash of record " + std::to_string(i ? i - 1 : 0) + (i ? "" : " (zeros expected for the first record)") + ": the chain is broken (a record before it was edited or replaced)"};
    prev_hash = scanned[i].hash;
  }
  head_hash = prev_hash;
  return std::nullopt;
}

}  // namespace

VerifyResult verify(const std::string& trace_path, const PublicKey& trusted) { return verify(trace_path, trusted, {}); }

VerifyResult verify(const std::string& trace_path, const PublicKey& trusted, const VerifyOptions& options) {
  std::ifstream in(trace_path, std::ios::binary);
  if (!in) throw Error(ExitCode::BadInput, trace_path + ": cannot read the trace file");
  std::string text;
  in.seekg(0, std::ios::end);
  text.resize(static_cast<size_t>(in.tellg()));
  in.seekg(0, std::ios::beg);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (!in) throw Error(ExitCode::BadInput, trace_path + ": cannot read the trace file");
  bool cut_off = false;
  const std::vector<std::string_view> lines = split_lines(text, cut_off);
  const std::vector<Scanned> scanned = scan_all(lines);
  VerifyResult result{true, 0, "", lines.size(), kZeroHash};
  const uint64_t last = lines.empty() ? 0 : lines.size() - 1;
  std::optional<Failure> f = walk(lines, scanned, lines.size(), cut_off, trusted, [&](uint64_t i) { return options.every_signature || i == last; }, result.head_hash);
  if (f && !options.every_signature) {
    // Name the first bad record exactly: an edit before the failure shows up as a bad signature.
    std::string unused;
    auto exact = walk(lines, scanned, f->record + 1, cut_off, trusted, [](uint64_t) { return true; }, unused);
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
