// racer trace keygen KEYFILE | racer trace verify TRACE --key KEYFILE.pub
#include <filesystem>
#include <fstream>
#include <iostream>

#include "support/error.hpp"

#include "tools/racer/commands.hpp"
#include "tools/racer/options.hpp"
#include "trace/trace.hpp"

namespace racer::cli {

void add_trace_commands(CLI::App& app) {
  static std::string key_path, trace_path, pub_path, expect_head;
  static uint64_t expect_records = 0;
  static bool every_signature = false;
  auto* t = app.add_subcommand("trace", "Signed, hash-chained trace records");
  t->require_subcommand(1);
  auto* g = t->add_subcommand("keygen", "Write a fresh Ed25519 key pair: KEYFILE (secret, hex) and KEYFILE.pub");
  g->add_option("keyfile", key_path, "secret key file to create")->required();
  on_selected(g, [] {
    trace::Signer::generate(key_path);
    std::cout << "wrote " << key_path << " (secret) and " << key_path << ".pub (public)\n";
    return 0;
  });
  static std::string from_path;
  auto* a = t->add_subcommand("append", "Sign measurements made elsewhere (one JSON object a line, floats as exact hex) into a trace");
  a->add_option("trace", trace_path, "trace file to append to (created if missing)")->required();
  a->add_option("--key", key_path, "secret key file")->required();
  a->add_option("--from", from_path, "JSON-lines file of measurements, e.g. a GPU bench's output")->required();
  on_selected(a, [] {
    std::ifstream in(from_path);
    if (!in) throw Error(ExitCode::BadInput, from_path + ": cannot read");
    trace::Writer w(trace_path, trace::Signer::load(key_path));
    const std::string source = std::filesystem::path(from_path).filename().string();
    uint64_t line_no = 0, appended = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_no;
      if (line.empty()) continue;
      nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object()) throw Error(ExitCode::BadInput, from_path + ":" + std::to_string(line_no) + ": not a JSON object");
      if (j.contains("imported_from")) throw Error(ExitCode::BadInput, from_path + ":" + std::to_string(line_no) + ": 'imported_from' is set by racer trace append");
      j["imported_from"] = source;  // signed here, measured elsewhere: the record says so
      try {
        w.append(j);
      } catch (const Error& e) {
        throw Error(ExitCode::BadInput, from_path + ":" + std::to_string(line_no) + ": " + e.what());
      }
      ++appended;
    }
    std::cout << "appended " << appended << " records to " << trace_path << " (" << w.records() << " in all)\n";
    return 0;
  });
  auto* v = t->add_subcommand("verify", "Check a trace's chain and signatures against a trusted public key");
  v->add_option("trace", trace_path, "trace file (JSON lines)")->required()->check(input_file());
  v->add_option("--key", pub_path, "trusted public key file (KEYFILE.pub)")->required()->check(input_file());
  v->add_flag("--every-signature", every_signature,
              "verify every record's signature (default: the last one's, which covers the rest through the hash chain)");
  v->add_option("--expect-records", expect_records,
                "the number of records the trace must hold (a chain alone cannot show records cut off its end)");
  v->add_option("--expect-head", expect_head, "the BLAKE2b-256 hex the last record must hash to");
  on_selected(v, [] {
    trace::PublicKey key = trace::PublicKey::load(pub_path);
    trace::VerifyResult r = trace::verify(trace_path, key, {every_signature});
    if (!r.ok) {
      std::cout << trace_path << ": TAMPERED: " << r.reason << "\n";
      return 1;
    }
    if (expect_records && r.records != expect_records) {
      std::cout << trace_path << ": TAMPERED: " << r.records << " records, expected " << expect_records
                << (r.records < expect_records ? " (records were removed from the end)" : "") << "\n";
      return 1;
    }
    if (!expect_head.empty() && r.head_hash != expect_head) {
      std::cout << trace_path << ": TAMPERED: the last record hashes to " << r.head_hash << ", expected " << expect_head << "\n";
      return 1;
    }
    std::cout << trace_path << ": ok, " << r.records << " records, chain and signatures valid; head " << r.head_hash << "\n";
    return 0;
  });
}

}  // namespace racer::cli
