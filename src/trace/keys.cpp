#include "trace/keys.hpp"

#include <sodium.h>
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/error.hpp"

namespace racer::trace {
namespace {

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw Error(ExitCode::BadInput, where + ": " + what);
}

// The key file's one line of hex, without surrounding whitespace.
std::string read_key_text(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) bad(path, std::string("cannot read ") + what + " file");
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  size_t b = text.find_first_not_of(" \t\r\n"), e = text.find_last_not_of(" \t\r\n");
  if (b == std::string::npos) bad(path + ":1", std::string("empty ") + what + " file");
  text = text.substr(b, e - b + 1);
  if (text.find('\n') != std::string::npos) bad(path + ":2", std::string("a ") + what + " file holds one line of hex");
  return text;
}

}  // namespace

void ensure_sodium() {
  static const bool ok = sodium_init() >= 0;
  if (!ok) throw Error(ExitCode::Internal, "libsodium failed to initialise");
}

std::string to_hex(const uint8_t* data, size_t size) {
  static const char* digits = "0123456789abcdef";
  std::string out(size * 2, '0');
  for (size_t i = 0; i < size; ++i) {
    out[2 * i] = digits[data[i] >> 4];
    out[2 * i + 1] = digits[data[i] & 15];
  }
  return out;
}

bool from_hex(std::string_view hex, uint8_t* out, size_t out_size) {
  if (hex.size() != out_size * 2) return false;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < out_size; ++i) {
    int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return true;
}

std::string blake2b_256_hex(std::string_view data) {
  ensure_sodium();
  uint8_t h[32];
  crypto_generichash(h, sizeof h, reinterpret_cast<const unsigned char*>(data.data()), data.size(), nullptr, 0);
  return to_hex(h, sizeof h);
}

PublicKey PublicKey::from_hex(const std::string& hex, const std::string& where) {
  PublicKey k;
  if (!trace::from_hex(hex, k.bytes_.data(), k.bytes_.size()))
    bad(where, "expected 64 hex digits (an Ed25519 public key), found " + std::to_string(hex.size()) + " characters");
  return k;
}

PublicKey PublicKey::load(const std::string& public_key_path) {
  ensure_sodium();
  return from_hex(read_key_text(public_key_path, "public key"), public_key_path + ":1");
}

std::string PublicKey::hex() const { return to_hex(bytes_.data(), bytes_.size()); }

bool PublicKey::verify(std::string_view message, const std::array<uint8_t, 64>& signature) const {
  ensure_sodium();
  return crypto_sign_verify_detached(signature.data(), reinterpret_cast<const unsigned char*>(message.data()),
                                     message.size(), bytes_.data()) == 0;
}

Signer Signer::load(const std::string& secret_key_path) {
  ensure_sodium();
  std::string text = read_key_text(secret_key_path, "secret key");
  Signer s;
  if (!trace::from_hex(text, s.secret_.data(), s.secret_.size()))
    bad(secret_key_path + ":1", "expected 128 hex digits (an Ed25519 secret key), found " + std::to_string(text.size()) + " characters");
  // An Ed25519 secret key is seed || public key: regenerate from the seed to catch an edited file.
  std::array<uint8_t, 32> pk{};
  std::array<uint8_t, 64> regenerated{};
  crypto_sign_seed_keypair(pk.data(), regenerated.data(), s.secret_.data());
  if (regenerated != s.secret_) bad(secret_key_path + ":1", "not an Ed25519 secret key (its public half does not match its seed)");
  s.public_ = PublicKey::from_hex(to_hex(pk.data(), pk.size()), secret_key_path);
  sodium_memzero(regenerated.data(), regenerated.size());
  return s;
}

void Signer::generate(const std::string& secret_key_path) {
  ensure_sodium();
  if (std::filesystem::exists(secret_key_path)) bad(secret_key_path, "exists already; refusing to overwrite a key");
  std::array<uint8_t, 32> pk{};
  std::array<uint8_t, 64> sk{};
  crypto_sign_keypair(pk.data(), sk.data());
  {
    std::ofstream out(secret_key_path, std::ios::binary);
    if (!out) bad(secret_key_path, "cannot write the secret key file");
    ::chmod(secret_key_path.c_str(), 0600);
    out << to_hex(sk.data(), sk.size()) << "\n";
    if (!out) bad(secret_key_path, "cannot write the secret key file");
  }
  sodium_memzero(sk.data(), sk.size());
  std::ofstream pub(secret_key_path + ".pub", std::ios::binary);
  pub << to_hex(pk.data(), pk.size()) << "\n";
  if (!pub) bad(secret_key_path + ".pub", "cannot write the public key file");
}

std::array<uint8_t, 64> Signer::sign(std::string_view message) const {
  ensure_sodium();
  std::array<uint8_t, 64> sig{};
  crypto_sign_detached(sig.data(), nullptr, reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                       secret_.data());
  return sig;
}

}  // namespace racer::trace
