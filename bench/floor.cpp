// The floor of what imgaudit must do with a layer's bytes when it verifies them (the default): SHA-256 of the
// compressed blob (its digest), ISA-L's streaming inflate, and SHA-256 of the uncompressed tar (its diff_id),
// on one thread, nothing else. The bench compares imgaudit -j 1's CPU with it.
// Usage: imgaudit-bench-floor BLOB...   (gzip blobs; prints the bytes read and written)
#include <isa-l/igzip_lib.h>
#include <openssl/evp.h>

#include <cstdio>
#include <memory>
#include <vector>

namespace {

constexpr size_t kChunk = size_t(1) << 20;

struct Digest {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), EVP_MD_CTX_free};
  Digest() { EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr); }
  void update(const void* data, size_t size) { EVP_DigestUpdate(ctx.get(), data, size); }
  void finish() {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned size = 0;
    EVP_DigestFinal_ex(ctx.get(), out, &size);
  }
};

// Inflates every gzip member of `file`, hashing both sides; false when it is not gzip.
bool floor_of(FILE* file, unsigned long long& in_total, unsigned long long& out_total) {
  std::vector<unsigned char> in(kChunk), out(kChunk);
  Digest compressed, uncompressed;
  inflate_state state;
  isal_inflate_init(&state);
  state.crc_flag = ISAL_GZIP;
  for (size_t got; (got = fread(in.data(), 1, in.size(), file)) > 0;) {
    compressed.update(in.data(), got);
    in_total += got;
    state.next_in = in.data();
    state.avail_in = uint32_t(got);
    while (state.avail_in > 0 || state.block_state != ISAL_BLOCK_FINISH) {
      state.next_out = out.data();
      state.avail_out = uint32_t(out.size());
      if (isal_inflate(&state) != ISAL_DECOMP_OK) return false;
      const size_t made = out.size() - state.avail_out;
      uncompressed.update(out.data(), made);
      out_total += made;
      if (state.block_state == ISAL_BLOCK_FINISH && state.avail_in > 0) {  // the next member
        const uint8_t* rest = state.next_in;
        const uint32_t left = state.avail_in;
        isal_inflate_reset(&state);
        state.crc_flag = ISAL_GZIP;
        state.next_in = const_cast<uint8_t*>(rest);
        state.avail_in = left;
      } else if (made == 0) {
        break;  // needs more input
      }
    }
  }
  compressed.finish();
  uncompressed.finish();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long long in_total = 0, out_total = 0;
  for (int i = 1; i < argc; ++i) {
    FILE* file = fopen(argv[i], "rb");
    if (!file || !floor_of(file, in_total, out_total)) {
      fprintf(stderr, "imgaudit-bench-floor: %s: unreadable or not gzip\n", argv[i]);
      return 2;
    }
    fclose(file);
  }
  printf("%llu bytes in, %llu bytes out\n", in_total, out_total);
  return 0;
}
