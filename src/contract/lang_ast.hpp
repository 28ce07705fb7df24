#pragma once
// The syntax tree of a kernel contract (.kc). A contract has the eight parts (identifier,
// scope, precondition, postcondition, tolerance, reference oracle, measurement protocol,
// violation signature) plus what a runnable contract needs: parameters, tensors, the
// tolerance's derivation, visible tests, and the implementations it is measured on.
// Every node keeps the byte range it was written at, so the linter can point at it.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace racer::contract {

struct Span {
  size_t offset = 0;
  size_t width = 1;
};

// Arithmetic over numbers, parameters and format constants: `4 * N * u(FP32)`.
struct Quantity {
  enum class Kind : uint8_t { Number, Name, Neg, Add, Sub, Mul, Div, Pow, Call };
  Kind kind = Kind::Number;
  double number = 0;
  std::string name;  // Name: a parameter; Call: the function (u, log2, sqrt, ceil, max, min)
  std::vector<Quantity> args;
  Span at;
};

struct Name {
  std::string text;
  Span at;
};

struct Predicate {
  // precision(x, y) in {FP16}; shape(x) = (N); value_range(x) finite | bounded q | in [a, b];
  // stack = NVIDIA; flag(F) = v; version >= 12.4; special(x) in {NaN, Inf, Denormal}
  enum class Kind : uint8_t { Precision, Shape, ValueRange, Stack, Flag, Version, Special };
  Kind kind = Kind::Precision;
  std::vector<Name> tensors;
  std::vector<Name> names;  // precision / special names, stack id, flag name and value
  std::vector<Quantity> values;  // shape dims, bound, interval ends
  std::string range_form;  // "finite", "bounded", "in"
  std::string comparator, version;
  Span at;
};

struct Relation {
  // output y satisfies close(y, ref) | declared_policy P in {A, B} | bitwise_identical across R
  // | raise E
  enum class Kind : uint8_t { Close, DeclaredPolicy, BitwiseIdentical, Raise };
  Kind kind = Kind::Close;
  Name output;  // Close: the tensor
  Name subject; // DeclaredPolicy: the policy's name; BitwiseIdentical: what varies; Raise: the class
  std::vector<Name> choices;
  Span at;
};

struct Tolerance {
  // absolute q | relative q | ulp q | exact | none | elementwise t and t | per_precision {P: t}
  enum class Kind : uint8_t { Absolute, Relative, Ulp, Exact, None, Elementwise, PerPrecision };
  Kind kind = Kind::None;
  Quantity bound;
  std::vector<Tolerance> parts;       // Elementwise
  std::vector<Name> precisions;       // PerPrecision, parallel to parts
  Span at;
};

struct Reference {
  // higher_precision P [impl I] [with k = v, ...] | alternate impl I | alternate_stack S
  // | algebraic property epsilon q | exact [impl I] | stable_algorithm A [impl I] | spec S
  enum class Kind : uint8_t { HigherPrecision, Alternate, AlternateStack, Algebraic, Exact, StableAlgorithm, Spec };
  Kind kind = Kind::Exact;
  Name what;   // precision, stack, property, algorithm or spec id
  std::optional<Name> impl;
  std::optional<Quantity> epsilon;
  std::vector<std::pair<Name, Name>> options;
  Span at;
};

struct Step {
  // sample n inputs [seed s] [scale q] | sweep P in {v, ...} | inject K count n
  // | enumerate atomic_orders n | repeat n | compute aggregate | within tolerance (the looser
  // bound a visible smoke test applies)
  // | transform shift x by q | transform permute x (the input change an algebraic invariance
  // is measured under)
  enum class Kind : uint8_t { Sample, Sweep, Inject, Enumerate, Repeat, Compute, Within, Transform };
  Kind kind = Kind::Sample;
  Name what;  // Sweep: parameter; Inject: nan|inf|denormal|out_of_bounds; Enumerate: space; Compute: aggregate
  std::optional<Quantity> count, seed, scale;
  std::vector<Quantity> values;  // Sweep
  std::shared_ptr<Tolerance> within;
  Name tensor;  // Transform: the input changed (what: shift | permute; count: the shift)
  Span at;
};

struct Arg {
  bool is_tensor = false;
  Name tensor;
  Quantity value;
  Span at;
};

struct LaunchDecl {
  Name entry;
  std::vector<Quantity> grid, block;
  std::optional<Quantity> shared;
  std::vector<Arg> args;
  Span at;
};

struct Impl {
  Name name;
  std::optional<Name> role;  // baseline | bad | good | reference
  std::optional<Name> ptx, source;
  std::optional<Name> cuda;  // CUDA C++ compiled to PTX by nvcc at run time (instead of ptx)
  // Triton: a Python file whose @triton.jit kernels the launches name, compiled at run time
  // for sm_90 with these options (instead of ptx).
  std::optional<Name> triton;
  std::optional<Quantity> warps, stages;
  std::vector<std::pair<Name, Quantity>> constexprs;
  std::optional<Name> precision;  // the working precision of a reference implementation
  std::vector<LaunchDecl> launches;
  std::vector<std::pair<Name, Name>> declares;  // nan = IEEE_PROPAGATE
  Span at;
  bool incomplete = false;  // a syntax error cut it short: the linter leaves it alone
};

struct TensorDecl {
  Name name;
  Name dtype;
  std::vector<Quantity> shape;
  Name role;  // input | output | scratch
  std::optional<std::pair<Quantity, Quantity>> range;
  Span at;
};

struct Param {
  Name name;
  Quantity value;
  Span at;
};

// One of the parts that appear once: where it was written (for duplicate/missing checks).
struct Contract {
  Name id;
  Span at;
  std::vector<Name> scope;
  std::vector<Param> params;
  std::vector<TensorDecl> tensors;
  std::vector<Predicate> pre;
  std::vector<Relation> post;
  std::optional<Tolerance> tolerance;
  std::optional<Name> derivation;
  std::optional<Reference> reference;
  std::vector<Step> measure, visible;
  std::optional<Name> violation;
  std::vector<Impl> impls;
  // Which single-occurrence parts were written, and where (keyword -> span of the first one).
  std::map<std::string, Span> parts_seen;
  // A syntax error cut parts of it: the linter checks what parsed, but not what may be missing
  // because of the error (required parts, names declared where the error was).
  bool incomplete = false;

  const Impl* find_impl(const std::string& name) const;
  const TensorDecl* find_tensor(const std::string& name) const;
  const Param* find_param(const std::string& name) const;
};

struct ContractFile {
  std::vector<Contract> contracts;
  // The lexer met characters it could not read: the tokens themselves are in doubt (a malformed
  // number reads as 0), so only the syntax errors are reported.
  bool unreadable = false;
};

}  // namespace racer::contract
