#pragma once
// The canonical text of a trace record: nlohmann's compact dump (keys sorted bytewise, no
// spaces). Floats are not allowed inside records: a double has many decimal spellings, so
// the caller writes it as an exact_hex string, which has one.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace racer::trace {

// The canonical line, or nullopt if the value holds a float or a string that is not UTF-8.
std::optional<std::string> canonical_text(const nlohmann::json& value);
// The path ("a.b[2]") of the first float inside `value`, or "" if it has none.
std::string first_float(const nlohmann::json& value, const std::string& path = "");

}  // namespace racer::trace
