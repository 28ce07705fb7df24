#pragma once
// The pieces of load_instance, one per part of the file. Each reports its problems through
// the reader and returns what it could make of the rest; load_instance throws at the end if
// anything was reported. Internal to the instance layer.
#include <filesystem>
#include <optional>
#include <string_view>
#include <toml++/toml.h>
#include <vector>

#include "instance/instance.hpp"
#include "instance/toml_reader.hpp"

namespace racer::instance {

// [tensors], in file order.
std::vector<Tensor> load_tensors(TomlReader& r, const toml::table& tensors);

// [[a.launch]] ... for program `name` ("a" or "b"). PTX paths resolve against `base_dir`.
Program load_program(TomlReader& r, const toml::node& node, std::string_view name,
                     const std::vector<Tensor>& tensors, const std::filesystem::path& base_dir);

// [tensor_maps] over the declared tensors; then each tensor_map argument of a program must
// name one of them.
std::vector<TensorMap> load_tensor_maps(TomlReader& r, const toml::table& maps, const std::vector<Tensor>& tensors);
void check_tensor_map_args(TomlReader& r, const Instance& inst, const Program& p);

// [expect].
std::optional<Expect> load_expect(TomlReader& r, const toml::node& node);

// Reports (at `at`) when integer-typed storage of type `type` cannot hold `v`.
bool check_fits(TomlReader& r, const toml::node& at, const Number& v, IntBounds bounds, std::string_view type);

}  // namespace racer::instance
