#pragma once
// "Did you mean" for misspelt keys and names: a typo in an instance file should be answered
// with the word that was meant, not only with the list of every allowed word.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace racer::instance {

// The candidate closest to `word`, if it is close enough to be a plausible typo.
std::optional<std::string_view> closest(std::string_view word, std::span<const std::string_view> candidates);

// "; did you mean 'x'?" or "; expected one of a, b, c" (the latter only when `list_all`).
std::string suggestion(std::string_view word, std::span<const std::string_view> candidates, bool list_all = true);

}  // namespace racer::instance
