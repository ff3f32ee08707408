#include "app/cache_cli.h"

#include <ctime>
#include <iostream>

#include "app/exit_status.h"

#include "cache/cache_dir.h"
#include "cache/cache_entries.h"
#include "cache/redis_url.h"
#include "util/duration.h"
#include "util/error.h"
#include "util/human_size.h"
#include "util/limits.h"
#include "util/strings.h"

namespace imgaudit {

namespace {

std::string entries_text(uint64_t n) { return std::to_string(n) + (n == 1 ? " entry" : " entries"); }

std::string cache_folder(const RegistryCliOptions& options) {
  std::string dir = options.cache_dir.empty() ? default_cache_dir() : options.cache_dir;
  if (dir.empty())
    throw InputError("no cache folder: neither XDG_CACHE_HOME nor HOME is set (name one with --cache-dir)");
  return dir;
}

// The Redis that --cache names, as messages name it: never its user nor password.
std::string shared_cache_name(const RegistryCliOptions& options) {
  RedisUrl url = parse_redis_url(options.cache);
  return printable(url.endpoint() + "/" + std::to_string(url.db));
}

// The lines both subcommands end with: what the walk left alone or could not do. The exit status.
int write_notes(std::ostream& out, const CacheTally& tally, const RegistryCliOptions& options, bool removing) {
  if (tally.foreign)
    out << "left alone: " << tally.foreign << (tally.foreign == 1 ? " name" : " names")
        << " imgaudit did not make (first: " << printable(tally.first_foreign) << ")\n";
  if (tally.cut)
    out << (removing ? "removed from" : "counted") << " the first " << kMaxCacheNamesVisited
        << " names only (kMaxCacheNamesVisited): the folder holds more\n";
  if (!options.cache.empty())
    out << "layer facts: in Redis at " << shared_cache_name(options)
        << " (--cache), shared with other runs: neither counted nor removed here; Redis drops those unused for "
        << printable(options.cache_ttl) << " (--cache-ttl)\n";
  out.flush();
  if (!tally.failed) return kExitClean;
  std::cerr << "imgaudit: " << tally.failed << " of the cache's entries or folders could not be "
            << (removing ? "removed" : "read") << " (first: " << printable(tally.first_failure)
            << ")\n";
  return kExitError;
}

int cache_info(const RegistryCliOptions& options, std::ostream& out) {
  const std::string dir = cache_folder(options);
  const CacheTally tally = count_cache_entries(dir);
  out << "cache folder: " << printable(dir) << (tally.folder_exists ? "" : " (not made yet)") << '\n';
  for (const CacheKindTally& kind : tally.kinds)
    out << kind.kind << ": " << entries_text(kind.entries) << ", " << human_size(kind.bytes) << " (" << kind.what
        << ")\n";
  out << "total: " << entries_text(tally.entries()) << ", " << human_size(tally.bytes()) << '\n';
  return write_notes(out, tally, options, false);
}

int cache_clean(const CacheCommand& command, const RegistryCliOptions& options, std::ostream& out) {
  const std::string dir = cache_folder(options);
  std::optional<int64_t> older_than_seconds;
  if (!command.older_than.empty())
    older_than_seconds = *parse_duration_ms(command.older_than, kMaxCacheTtlMs) / 1000;  // checked by duration_check
  const CacheTally tally = remove_cache_entries(dir, older_than_seconds, std::time(nullptr));
  out << "cache folder: " << printable(dir) << (tally.folder_exists ? "" : " (not made yet)") << '\n';
  for (const CacheKindTally& kind : tally.kinds)
    out << kind.kind << ": " << entries_text(kind.entries) << " removed, " << human_size(kind.bytes) << '\n';
  out << "freed: " << entries_text(tally.entries()) << ", " << human_size(tally.bytes()) << '\n';
  if (tally.kept)
    out << "kept: " << entries_text(tally.kept) << ", " << human_size(tally.kept_bytes) << " ("
        << (command.older_than.empty() ? "" : "written within " + printable(command.older_than) + ", or ")
        << "temporary files of the last " << kCacheTempFileGraceSeconds / 60
        << " minutes, which a running audit may still be writing)\n";
  return write_notes(out, tally, options, true);
}

}  // namespace

void add_cache_command(CLI::App& app, CacheCommand& out) {
  out.command = app.add_subcommand("cache", "the cache folder: what it holds (info), or remove imgaudit's entries (clean)");
  out.command->require_subcommand(0, 1);
  out.info = out.command->add_subcommand("info", "the cache folder, its entries and bytes of each kind and in all");
  out.clean = out.command->add_subcommand(
      "clean", "remove imgaudit's entries from the cache folder (files of its names only, no links, no other "
               "files), and say what that freed");
  out.clean->add_option("--older-than", out.older_than,
                        "DURATION: only entries written longer ago (30d, 12h, 90m, 3600s)")
      ->check(duration_check());
  // The audit's options, given after the subcommand, are the audit's: --cache-dir, --cache, --config.
  for (CLI::App* command : {out.command, out.info, out.clean}) command->fallthrough();
}

int run_cache_command(const CacheCommand& command, const RegistryCliOptions& options, std::ostream& out) {
  if (command.clean->parsed()) return cache_clean(command, options, out);
  if (command.info->parsed()) return cache_info(options, out);
  throw InputError("imgaudit cache needs info (what the cache folder holds) or clean (remove its entries)");
}

}  // namespace imgaudit
