#pragma once
// Ed25519 keys (libsodium) kept in hex text files: KEYFILE holds the 64-byte secret key,
// KEYFILE.pub the 32-byte public key. A missing or garbled key file is a located racer::Error.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace racer::trace {

class PublicKey {
 public:
  static PublicKey load(const std::string& public_key_path);
  static PublicKey from_hex(const std::string& hex, const std::string& where);
  const std::array<uint8_t, 32>& bytes() const { return bytes_; }
  std::string hex() const;
  bool verify(std::string_view message, const std::array<uint8_t, 64>& signature) const;

 private:
  std::array<uint8_t, 32> bytes_{};
};

class Signer {
 public:
  static Signer load(const std::string& secret_key_path);
  // Writes a fresh key pair to KEYFILE and KEYFILE.pub (the secret file with mode 0600);
  // refuses to overwrite an existing KEYFILE.
  static void generate(const std::string& secret_key_path);
  const PublicKey& public_key() const { return public_; }
  std::array<uint8_t, 64> sign(std::string_view message) const;

 private:
  std::array<uint8_t, 64> secret_{};
  PublicKey public_;
};

// libsodium must be initialised once before use; every entry point here calls this.
void ensure_sodium();
std::string to_hex(const uint8_t* data, size_t size);
// Exactly `out_size` bytes from hex; false on any other length or a non-hex character.
bool from_hex(std::string_view hex, uint8_t* out, size_t out_size);
// BLAKE2b-256 of `data`, as 64 hex digits.
std::string blake2b_256_hex(std::string_view data);

}  // namespace racer::trace
