#pragma once
// Signed, hash-chained trace records (JSON lines). Every measurement a contract or a
// Freivalds check makes can append one record; `racer trace verify` later proves that no
// record was edited, removed, reordered or signed by a key other than the trusted one.
//
// A record is one canonical JSON line: keys sorted, no spaces, floats written by the caller
// as exact hex strings (exact_hex). The writer adds
//   seq  - 0-based position in the file,
//   prev - BLAKE2b-256 (hex) of the previous record's full canonical line (64 zeros first),
//   key  - the signer's Ed25519 public key (hex),
//   sig  - Ed25519 signature (hex) over the canonical line of the record without "sig".
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "trace/keys.hpp"

namespace racer::trace {

// Appends records to a JSON-lines file, continuing the chain of an existing file. Before
// continuing it checks that the file's last record is signed by this signer, so it never
// vouches (through its own chained signature) for a record it did not write.
class Writer {
 public:
  Writer(std::string trace_path, Signer signer);
  // `fields` is a JSON object of the measurement; the names seq, prev, key and sig are the
  // writer's and are refused, as are JSON floats (write them with exact_hex: a float has no
  // single canonical decimal spelling).
  void append(const nlohmann::json& fields);
  uint64_t records() const { return next_seq_; }

 private:
  std::string path_;
  Signer signer_;
  uint64_t next_seq_ = 0;
  std::string prev_hash_hex_;
  std::ofstream out_;
};

// "0x1.8p+1" style: exact and round-trips through strtod ("inf", "-inf", "nan" for those).
std::string exact_hex(double v);
// The inverse of exact_hex; a located racer::Error if `text` is not such a number.
double parse_exact_hex(const std::string& text);

struct VerifyResult {
  bool ok;
  uint64_t first_bad_record;  // 0-based record (= line - 1); meaningful when !ok
  std::string reason;
  uint64_t records = 0;       // records read (all of them when ok)
  std::string head_hash;      // BLAKE2b-256 hex of the last record (to pin against truncation)
};

struct VerifyOptions {
  // Check every record's signature, not only the last one's. Without it the last record's
  // signature authenticates all earlier ones through the hash chain (each record commits to
  // the hash of the one before), which is as strong and far faster; every record's key field
  // is still checked against the trusted key. When anything fails, every signature up to the
  // failure is checked anyway, so the first bad record is named exactly.
  bool every_signature = false;
};

// Checks chain and signatures; names the first record edited, removed, reordered, or signed
// by another key (given the trusted public key). An unreadable file is a racer::Error
// (BadInput); a file whose contents were tampered with is a result with ok = false.
VerifyResult verify(const std::string& trace_path, const PublicKey& trusted);
VerifyResult verify(const std::string& trace_path, const PublicKey& trusted, const VerifyOptions& options);

}  // namespace racer::trace
