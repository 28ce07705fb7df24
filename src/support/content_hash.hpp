#pragma once
// Content hashes name cached compiler outputs: equal inputs find the same file, so a kernel is
// lowered once however many checks use it.
#include <string>
#include <string_view>

namespace racer {

// 32 hex digits (two independent 64-bit FNV-1a lanes); stable across runs and machines.
std::string content_hash(std::string_view data);

// The directory compiled PTX is cached in: $RACER_CACHE_DIR, else $XDG_CACHE_HOME/racer,
// else ~/.cache/racer. Created when missing; throws racer::Error(BadInput) when it cannot be.
std::string default_cache_dir();

// Writes `ptx` to <cache_dir>/<hash>.ptx (once; an existing file is the same content) and
// returns that path.
std::string store_ptx(std::string_view ptx, const std::string& cache_dir);

}  // namespace racer
