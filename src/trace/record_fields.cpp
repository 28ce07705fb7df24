#include "trace/record_fields.hpp"

#include <nlohmann/json.hpp>

#include "trace/canonical.hpp"
#include "trace/canonical_scan.hpp"
#include "trace/keys.hpp"

namespace racer::trace {
namespace {

bool is_hex_string(const Member& m, size_t digits, std::string& out) {
  if (!m.present || m.value.size() != digits + 2 || m.value.front() != '"') return false;
  out.assign(m.value.substr(1, digits));
  for (char c : out)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// The writer fields straight from a scanned canonical line; nullopt sends the line to the slow path.
std::optional<ParsedRecord> from_scan(const std::string& line, const ScanResult& sc, bool want_signed_text) {
  ParsedRecord r;
  std::string sig_hex;
  if (!is_hex_string(sc.prev, 64, r.prev_hex) || !is_hex_string(sc.key, 64, r.key_hex) || !is_hex_string(sc.sig, 128, sig_hex))
    return std::nullopt;  // let the slow path word the problem
  if (!sc.seq.present || sc.seq.value.empty() || sc.seq.value[0] == '-' || sc.seq.value[0] == '"') return std::nullopt;
  uint64_t seq = 0;
  for (char c : sc.seq.value) {
    if (c < '0' || c > '9') return std::nullopt;
    seq = seq * 10 + static_cast<uint64_t>(c - '0');
  }
  r.seq = seq;
  from_hex(sig_hex, r.sig.data(), r.sig.size());
  if (!want_signed_text) return r;
  // Removing one member from a canonical object leaves the canonical text of the rest.
  size_t begin = sc.sig.begin, end = sc.sig.end;
  if (line[end] == ',') ++end;
  else if (line[begin - 1] == ',') --begin;
  r.signed_text = line.substr(0, begin) + line.substr(end);
  return r;
}

}  // namespace

ParsedRecord parse_record(const std::string& line, bool want_signed_text) {
  ScanResult sc = scan_record(line);
  if (sc.status == ScanResult::NotCanonical) {
    ParsedRecord r;
    r.problem = line.empty() || line[0] != '{' ? "not a JSON object" : "not in canonical form (keys sorted, no spaces, no floats)";
    return r;
  }
  if (sc.status == ScanResult::Canonical)
    if (std::optional<ParsedRecord> r = from_scan(line, sc, want_signed_text)) return std::move(*r);
  return parse_record_slow(line);
}

ParsedRecord parse_record_slow(const std::string& line) {
  ParsedRecord r;
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    r.problem = "not a JSON object";
    return r;
  }
  std::optional<std::string> canon = canonical_text(j);
  if (!canon || *canon != line) {
    r.problem = "not in canonical form (keys sorted, no spaces, no floats)";
    return r;
  }
  auto str_field = [&](const char* name, size_t hex_digits, std::string& out) {
    auto it = j.find(name);
    if (it == j.end() || !it->is_string() || it->get_ref<const std::string&>().size() != hex_digits) {
      r.problem = std::string("its '") + name + "' field is missing or not " + std::to_string(hex_digits) + " hex digits";
      return false;
    }
    out = it->get<std::string>();
    return true;
  };
  std::string sig_hex;
  if (!str_field("prev", 64, r.prev_hex) || !str_field("key", 64, r.key_hex) || !str_field("sig", 128, sig_hex)) return r;
  if (!from_hex(sig_hex, r.sig.data(), r.sig.size())) {
    r.problem = "its 'sig' field is not hex";
    return r;
  }
  auto seq = j.find("seq");
  if (seq == j.end() || !seq->is_number_unsigned()) {
    r.problem = "its 'seq' field is missing or not a non-negative integer";
    return r;
  }
  r.seq = seq->get<uint64_t>();
  j.erase("sig");
  r.signed_text = *canonical_text(j);
  return r;
}

}  // namespace racer::trace
