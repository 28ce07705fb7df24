#include "trace/record_fields.hpp"

#include <nlohmann/json.hpp>

#include "trace/canonical.hpp"
#include "trace/keys.hpp"

namespace racer::trace {

ParsedRecord parse_record(const std::string& line) {
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
