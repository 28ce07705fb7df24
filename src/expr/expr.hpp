#pragma once
// The expression layer in one include: hash-consed exact real expressions (Store), exact
// evaluation, substitution, printing, and the canonical-form checker.
#include "expr/canonical.hpp"
#include "expr/eval.hpp"
#include "expr/print.hpp"
#include "expr/store.hpp"
#include "expr/substitute.hpp"
