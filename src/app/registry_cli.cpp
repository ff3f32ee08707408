#include "app/registry_cli.h"

#include <unistd.h>

#include <fstream>
#include <optional>

#include "cache/redis_url.h"
#include "util/bounded_file.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

// CLI11 checks, so that a bad value in a variable or the settings file is named as a flag's is. Their
// words never repeat the URL: it may hold a password.
CLI::Validator redis_url_check() {
  return CLI::Validator(
      [](std::string& url) {
        if (url.empty()) return std::string();  // none: a settings file or variable can unset it
        try {
          parse_redis_url(url);
          return std::string();
        } catch (const InputError& e) {
          return std::string(e.what());
        }
      },
      "");
}

// A secret as a file or a pipe gives it: without the line ends after it (echo, a file written by an editor).
std::string without_line_ends(std::string secret) {
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  return secret;
}

// --cache-key-file's key: the file's bytes without the newlines that end it.
std::string read_cache_key(const RegistryCliOptions& cli) {
  if (cli.cache_key_file.empty()) return "";
  if (cli.cache.empty())
    throw InputError("--cache-key-file seals the values of the shared cache: name the Redis with --cache");
  std::optional<std::string> file =
      read_bounded_file(cli.cache_key_file, {kMaxCacheKeyFile, "kMaxCacheKeyFile", true});
  if (!file) throw InputError(printable(cli.cache_key_file) + ": no such key file (--cache-key-file)");
  std::string key = without_line_ends(std::move(*file));
  if (key.size() < kMinCacheKeyBytes)
    throw InputError(printable(cli.cache_key_file) + ": a key of " + std::to_string(key.size()) +
                     " bytes, fewer than " + std::to_string(kMinCacheKeyBytes) +
                     " (kMinCacheKeyBytes): make one with openssl rand -hex 32");
  return key;
}

}  // namespace

CLI::Validator duration_check() {
  return CLI::Validator(
      [](std::string& text) {
        if (parse_duration_ms(text, kMaxCacheTtlMs)) return std::string();
        return "\"" + text.substr(0, 40) + "\" is no duration: a whole number and a unit, s, m, h or d (30d, 12h, 90m, " +
               "3600s), up to 3650d";
      },
      "");
}

void add_registry_options(CLI::App& app, RegistryCliOptions& out) {
  app.add_option("--username", out.username, "registry user name (with --password-stdin); else docker's credentials");
  app.add_flag("--password-stdin", out.password_stdin, "read the registry password or token from standard input");
  app.add_option("--ca-cert", out.ca_cert, "trust this CA certificate file (PEM) besides the system's");
  app.add_option("--insecure-registry", out.insecure_registries,
                 "HOST[:PORT] that may be reached over plain HTTP (localhost and 127.0.0.1 always may); repeatable")
      ->allow_extra_args(false);
  app.add_option("--timeout", out.timeout_seconds,
                 "seconds to connect, and without data, before a request fails; a small answer (manifest, token, "
                 "list page) must be whole within 4 times it, and a credential helper answer and exit within it "
                 "(default 30)")
      ->check(CLI::Range(1L, 3600L));
  app.add_option("--retry-wait", out.retry_wait_ms,
                 "milliseconds before retrying a failed request, doubled for each next retry (default 500)")
      ->check(CLI::Range(1L, 60000L));
  app.add_flag("--no-cache", out.no_cache, "neither read nor write the cache");
  app.add_option("--cache-dir", out.cache_dir,
                 "cache folder (default $XDG_CACHE_HOME/imgaudit or ~/.cache/imgaudit); given, local images use it too");
  app.add_option("--cache", out.cache,
                 "share layer facts through Redis, for local images too: redis://[USER:PASSWORD@]HOST:PORT[/DB], or "
                 "rediss:// for TLS (manifests and configs stay in the cache folder)")
      ->check(redis_url_check());
  app.add_option("--cache-ttl", out.cache_ttl,
                 "how long layer facts stay in Redis after they were last stored or used: 30d, 12h, 90m, 3600s "
                 "(default 30d)")
      ->check(duration_check());
  app.add_option("--cache-key-file", out.cache_key_file,
                 "with --cache: seal the Redis values with HMAC-SHA-256 under the key in FILE (at least 32 bytes; "
                 "openssl rand -hex 32), and read again a layer whose value fails the check; every run sharing the "
                 "Redis uses the same key");
}

void apply_registry_options(const RegistryCliOptions& cli, AuditOptions& options) {
  if (cli.password_stdin && cli.username.empty()) throw InputError("--password-stdin needs --username");
  if (!cli.username.empty() && !cli.password_stdin)
    throw InputError("--username needs --password-stdin (a password is never taken on the command line)");
  if (cli.password_stdin) {
    std::string password = without_line_ends(
        read_bounded_fd(STDIN_FILENO, "standard input (--password-stdin)", {kMaxPasswordBytes, "kMaxPasswordBytes"}));
    if (password.empty()) throw InputError("--password-stdin: standard input holds no password");
    options.registry.credentials = Credentials{cli.username, password};
  }
  if (!cli.ca_cert.empty() && !std::ifstream(cli.ca_cert))
    throw InputError(cli.ca_cert + ": cannot read the CA certificate (--ca-cert)");
  options.registry.http.ca_cert = cli.ca_cert;
  options.registry.http.timeout_seconds = cli.timeout_seconds;
  options.registry.http.first_retry_wait_ms = cli.retry_wait_ms;
  options.registry.insecure_registries = cli.insecure_registries;
  if (cli.no_cache && !cli.cache.empty())
    throw InputError("--no-cache and --cache contradict each other: --no-cache reads and writes no cache, --cache "
                     "names one for the layer facts");
  options.use_cache = !cli.no_cache;
  options.cache_dir = cli.cache_dir;
  options.shared_cache.url = cli.cache;
  options.shared_cache.ttl_ms = *parse_duration_ms(cli.cache_ttl, kMaxCacheTtlMs);  // checked by duration_check
  options.shared_cache.ca_cert = cli.ca_cert;
  options.shared_cache.seal_key = read_cache_key(cli);
}

}  // namespace imgaudit
