#pragma once
// Parsing .kc files into the contract syntax tree. Syntax errors are collected (file:line:col
// with a caret); after an error the parser resumes at the next part keyword, so one run
// reports every problem of the file.
#include <string>

#include "contract/lang_ast.hpp"
#include "support/diagnostics.hpp"
#include "support/source_text.hpp"

namespace racer::contract {

// Parses the whole text; errors go to `diags` (the result holds what could be parsed).
ContractFile parse_contracts(const SourceText& src, Diagnostics& diags);

// The keywords that start a part of a contract body, in the order the documentation gives.
const std::vector<std::string>& part_keywords();

}  // namespace racer::contract
