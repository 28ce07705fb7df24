#pragma once
// racer check FILE.py: the Python side describes the instances the file defines (python3 -m
// racer.cli describe, which loads only the front end) and this process checks and reports each
// one as it does a TOML instance: one checker, one report, one set of exit codes.
#include <functional>
#include <string>

#include "check/check.hpp"
#include "instance/instance.hpp"

namespace racer::cli {

// Prints every instance's report (or, with `json`, one JSON report, a list when the file defines
// several), saves the witnesses (one file each, named after the instance, when there are several)
// and returns the most severe exit code (racer::most_severe).
// `also` runs on each checked instance (further reports; `several`: the file defines more than one).
using AlsoReport = std::function<void(const instance::Instance&, const check::CheckResult&, bool several)>;
int check_python_file(const std::string& path, const check::CheckOptions& options, bool json, const std::string& witness,
                      const AlsoReport& also = {});

// The instance named `name` (or the file's only one when `name` is empty) a .py file defines,
// as the Python side describes it; racer::Error (bad input) naming the instances there are
// when none or several match.
instance::Instance python_instance(const std::string& path, const std::string& name);

// `base` itself when one instance writes a file, else base with the instance's name before its
// extension (w.json -> w.NAME.json).
std::string per_instance_path(const std::string& base, const std::string& name, bool several);

}  // namespace racer::cli
