#pragma once
// The checking instance: tensors both programs start from, the launches of program A and
// program B, the outputs compared, and (in test corpora) the expected answer. Numbers are
// kept as the exact decimal text the user wrote, because the engine reasons over exact
// rationals and 0.1 must not become the double nearest to it.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "instance/dtype.hpp"
#include "instance/reference.hpp"
#include "support/diagnostics.hpp"
#include "support/source_text.hpp"

namespace racer::instance {

// Where a piece of the instance was written, so later layers (e.g. matching args against the
// entry's params) can point at the line. `offset`/`width` are bytes into the file's text.
struct SourceLoc {
  std::string file;
  uint32_t line = 0;  // 0: not from a file (built by code)
  uint32_t col = 0;
  size_t offset = 0;
  size_t width = 1;

  std::string str() const;  // "file:line:col"
};

// A number as written. `text` is a plain decimal literal: TOML's underscores and leading '+'
// removed, hex/octal/binary integers rewritten in decimal; "inf"/"-inf" stand for infinities.
struct Number {
  std::string text;
  bool is_integer = false;  // written as a TOML integer (or boolean, for bool tensors)
  int64_t integer = 0;      // the value, when is_integer
  double value = 0;         // nearest double; for display and quick checks, never for semantics

  static Number from_int(int64_t v);
};

struct InitInput {};   // a fresh free variable per cell
struct InitEmpty {};   // allocated, never written: reading it into an output is a defect
struct InitZeros {};
struct InitFull {
  Number value;
};
struct InitValues {
  std::vector<Number> values;  // flattened row-major over the logical cells
};
using Init = std::variant<InitInput, InitEmpty, InitZeros, InitFull, InitValues>;

std::string_view init_name(const Init& init);  // "input", "empty", "zeros", "full", "values"

// A box constraint on the "input" cells of one tensor.
struct Range {
  Number lo;
  Number hi;
};

struct Tensor {
  std::string name;
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
  std::vector<int64_t> strides;  // in elements; one per dimension
  Init init;
  std::optional<Range> range;
  SourceLoc loc;  // the tensor's name in [tensors]

  int64_t cell_count() const;        // product of the shape: the logical cells
  int64_t storage_elements() const;  // largest offset the strides reach, plus one
  int64_t storage_bytes() const { return storage_elements() * static_cast<int64_t>(dtype_bytes(dtype)); }
  bool contiguous() const { return strides == row_major_strides(shape); }

  static std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape);
};

enum class Access : uint8_t { Read, Write, ReadWrite };
std::string_view access_name(Access a);  // the key spelling: "read", "write", "readwrite"
inline bool can_read(Access a) { return a != Access::Write; }
inline bool can_write(Access a) { return a != Access::Read; }

// A tensor's base address (plus an element offset) with the access the launch is allowed.
struct TensorRef {
  std::string tensor;
  Access access = Access::Read;
  int64_t offset = 0;  // elements
};

// A scalar param value; without an explicit type it takes the type of the .param it fills.
struct Scalar {
  Number number;
  std::optional<ScalarType> type;
  // Non-empty: the value is that of this one-cell input tensor, symbolic like every input (a
  // GEMM's alpha and beta as inputs rather than constants); `number` is then unused.
  std::string tensor;
};

struct Null {};

// A tensor map (CUtensorMap) passed by value, for TMA copies (cp.async.bulk.tensor): names
// one of the instance's [tensor_maps].
struct TensorMapRef {
  std::string map;
};

// [tensor_maps] name = { tensor = "A", box = [16, 16], swizzle = "128B" }: the global tensor
// (its shape, strides and element type), the box a TMA copy moves (per dimension, outermost
// first, as the tensor's shape), and the shared-memory swizzle (0 none, 32, 64 or 128 bytes).
struct TensorMap {
  std::string name;
  std::string tensor;
  std::vector<int64_t> box;
  uint32_t swizzle_bytes = 0;
  SourceLoc loc;
};

// What TMA does not accept in a map over tensor t (cuTensorMapEncodeTiled's rules: box rank
// and sizes, a contiguous innermost dimension, 16-byte strides and box rows, rows within the
// swizzle span). `field` is the map's key the problem concerns: "box" or "tensor".
struct TensorMapProblem {
  std::string field;
  std::string message;
};
std::vector<TensorMapProblem> tensor_map_problems(const TensorMap& m, const Tensor& t);
std::span<const std::string_view> swizzle_names();              // "none", "32B", "64B", "128B"
std::optional<uint32_t> swizzle_bytes_of(std::string_view name);  // 0, 32, 64, 128

struct Arg {
  std::variant<TensorRef, Scalar, Null, TensorMapRef> value;
  SourceLoc loc;
};

struct Launch {
  std::string ptx;  // resolved against the instance file's directory
  std::string entry;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t shared_bytes = 0;  // dynamic shared memory
  std::vector<Arg> args;      // one per .param of the entry, in order
  // A thread-block cluster shape (CTAs per cluster in x, y, z), when the launch declares one.
  std::optional<std::array<uint32_t, 3>> cluster;

  SourceLoc loc;  // the [[a.launch]] header (or the table)
  SourceLoc ptx_loc;
  SourceLoc entry_loc;
  SourceLoc args_loc;  // the whole args array: where a count mismatch is reported
  SourceLoc cluster_loc;

  uint64_t threads_per_block() const { return uint64_t{block[0]} * block[1] * block[2]; }
  uint64_t block_count() const { return uint64_t{grid[0]} * grid[1] * grid[2]; }
};

struct Program {
  std::vector<Launch> launches;  // run in order
  SourceLoc loc;
  // Program B may instead be a reference function (no launches): traced into `reference`;
  // from a TOML file first named as "file.py:function" or "module:function" (reference_spec),
  // which frontend/reference_trace resolves.
  std::shared_ptr<const Reference> reference;
  std::string reference_spec;
  SourceLoc reference_loc;
};

enum class Verdict : uint8_t { Equivalent, Inequivalent, NotEquivalent, EqualUpToRounding };
std::string_view verdict_name(Verdict v);  // the file spelling: "equivalent", ...

// A defect the checker must report: program 'a' or 'b', and the kind
// (oob_write, oob_read, uninit_read, race, access_violation).
struct ExpectedDefect {
  char program = 'a';
  std::string kind;

  bool operator==(const ExpectedDefect&) const = default;
};
std::span<const std::string_view> defect_kind_names();

// The right answer, present only in test corpora.
struct Expect {
  Verdict verdict = Verdict::Equivalent;
  std::vector<ExpectedDefect> diagnostics;
  std::string category;  // sampled_input | implicit_input | ... | none; "" when not given
  SourceLoc loc;
};
std::span<const std::string_view> category_names();

struct Instance {
  std::string name;
  std::string about;
  std::vector<std::string> outputs;
  std::vector<SourceLoc> output_locs;  // parallel to outputs
  std::vector<Tensor> tensors;         // in file order
  std::vector<TensorMap> tensor_maps;  // [tensor_maps], in file order
  Program a;
  Program b;
  std::optional<Expect> expect;
  std::string source_path;
  std::shared_ptr<const SourceText> source;  // null when built by code

  const Tensor* find_tensor(std::string_view name) const;
};

// What is wrong with a launch's cluster shape (CUDA's rules: at most 8 CTAs, the portable
// limit, and a grid that is a whole number of clusters); "" when nothing is.
std::string cluster_problem(const std::array<uint32_t, 3>& cluster, const std::array<uint32_t, 3>& grid);

// Reports an error located at `loc` of `inst`, with the caret line when the text is known.
void report(Diagnostics& diags, const Instance& inst, const SourceLoc& loc, std::string message);

}  // namespace racer::instance
