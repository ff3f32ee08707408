#include <csignal>

#ifdef IMGAUDIT_STATIC_BUILD
#include <openssl/crypto.h>
#endif

#include "app/cli.h"

int main(int argc, char** argv) {
  // Once, before any thread starts: a write to a pipe whose reader has gone (a credential helper's input, a
  // FIFO named by -o) fails with EPIPE, which the writer reports, instead of killing imgaudit. Standard
  // output keeps the signal's ending (report_file.h: end_if_stdout_reader_gone).
  std::signal(SIGPIPE, SIG_IGN);
#ifdef IMGAUDIT_STATIC_BUILD
  // The release build reads no OpenSSL configuration (the first use of a digest would): the path it was built
  // with names the build machine's (Debian's /usr/lib/ssl), which elsewhere is absent, another
  // distribution's, or names provider modules a static program cannot load.
  OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr);
#endif
  return imgaudit::run_cli(argc, argv);
}
