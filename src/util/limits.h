#pragma once
#include <cstddef>
#include <cstdint>

// Every bound imgaudit puts on its input, in one place (as bloaty keeps its own): what each bounds and why
// its value, which real images stay far below. docs/limits.md lists them with what happens when one is
// reached (tests/limits_doc_test.sh checks that it names each).
namespace imgaudit {

// --- File content: ELF files and the texts the inspectors read ---

// ELF files larger than this are reported (elf-unreadable), not inspected: the largest real ones (unstripped
// browsers, CUDA libraries) are a few GiB. The capture maps this much address space, never memory.
inline constexpr uint64_t kMaxElfSize = uint64_t(64) << 30;
// An ELF file up to this size is kept whole while inspected (all but a few files of any image: libLLVM,
// a Go or Rust program of note).
inline constexpr uint64_t kElfWholeFileBytes = uint64_t(32) << 20;
// Of a larger one: its first bytes (headers, .dynsym, .dynstr, version records: libLLVM's take 9 MiB),
inline constexpr uint64_t kElfHeadWindow = uint64_t(16) << 20;
// its last bytes (section headers and their names, .symtab of a stripped-of-debug-info program),
inline constexpr uint64_t kElfTailWindow = uint64_t(16) << 20;
// the first bytes of each PT_DYNAMIC, PT_INTERP and PT_NOTE segment (real ones are some KB),
inline constexpr uint64_t kElfSegmentWindow = uint64_t(4) << 20;
inline constexpr size_t kMaxElfSegmentWindows = 8;
// and the bytes after each of the first Go build info magics (the inline build info is some KB).
inline constexpr uint64_t kGoBuildInfoWindow = uint64_t(1) << 20;
inline constexpr size_t kMaxGoMagics = 4;
// The memory of every ELF capture at once, across the threads that read layers: two large files at a time.
inline constexpr uint64_t kElfMemoryBudget = uint64_t(160) << 20;
// DT_NEEDED entries of one file: real programs name under 200 (browsers, language runtimes); millions of
// names took gigabytes to hold.
inline constexpr size_t kMaxNeeded = 4096;
// Bytes of one DT_NEEDED or DT_SONAME name: under PATH_MAX.
inline constexpr size_t kMaxLibraryName = 4096;
// Bytes of one DT_RPATH or DT_RUNPATH: Nix's long ones stay under a few KiB.
inline constexpr size_t kMaxSearchPath = 65536;
// Symbols are matched against names of under 32 bytes (pthread_create, getaddrinfo, __res_*), so a longer
// name is read no further than this: a million symbols naming one unterminated 16 MiB string took hours.
inline constexpr size_t kSymbolNameSeen = 256;
// Symbols visited in one file: the largest unstripped programs (a browser, a JVM) carry a few million.
inline constexpr uint64_t kMaxSymbolsVisited = uint64_t(1) << 24;
// One text file an inspector reads (os-release, a package database, ld.so.conf, WHEEL, METADATA): dpkg's
// status of a large image is some MB (10,000 packages: about 10 MB).
inline constexpr uint64_t kMaxTextSize = uint64_t(16) << 20;
// One ld.so.cache: a cache of a few thousand libraries is some hundred KB.
inline constexpr uint64_t kMaxBlobSize = uint64_t(64) << 20;
// The first bytes of an executable file that starts with "#!", kept for the start checks: what Linux's
// binfmt_script reads of it (BINPRM_BUF_SIZE since 5.1; 128 bytes before), cut after the first line.
inline constexpr size_t kShebangBufferBytes = 256;
inline constexpr size_t kShebangBufferBytesBefore51 = 128;
// The start checks (facts/start_command.cpp): programs one command is followed through (scripts, their
// interpreters, env's NAME, the commands of a sh -c script; real chains are 2 to 4: past it, e.g. a script
// whose `#!/usr/bin/env NAME` names itself, the check says unknown); PATH entries searched (real ones have
// under 20); commands of one `sh -c` script looked up.
inline constexpr int kMaxStartExecs = 32;
inline constexpr size_t kMaxPathEntriesSearched = 256;
inline constexpr size_t kMaxShellCommandsChecked = 64;
// Bytes of each argument a start finding's message shows ("..." after): a config may hold megabytes.
inline constexpr size_t kStartArgumentShown = 200;

// --- Images and their layers ---

// Indexes inside indexes: real ones nest 1 or 2 deep (a layout's index.json around a multi-platform index).
inline constexpr int kMaxIndexNesting = 8;
// Manifests one index lists, the indexes inside it counted in, and images one docker save archive lists:
// multi-platform images list about 20 (a dozen platforms and their attestations); a layout of many tags, some
// hundreds.
inline constexpr size_t kMaxIndexManifests = 4096;
// Layers of one image: Docker refuses to run more than 127 (overlayfs' lower-directory bound).
inline constexpr size_t kMaxLayers = 1024;
// Tar headers in one layer, whiteouts and skipped ones counted in: a whole Debian 12 developer machine holds
// 470,000 files; the largest single layers (TeX Live, CUDA) some 200,000. 2^20 entries take 120 MiB.
inline constexpr size_t kMaxLayerEntries = size_t(1) << 20;
// Bytes of one path inside an image: Linux's PATH_MAX, beyond which no runtime can create the file. Real paths
// stay under 300 (the longest on a Debian 12 machine: 211; in Alpine's minirootfs: 80).
inline constexpr size_t kMaxPathBytes = 4096;
// Folders one path passes through: real paths pass under 30 (a Debian 12 machine: 21; Alpine's minirootfs: 7).
// Each path is kept whole, so 50,000 nested folders would cost 50,000 paths of up to 100 KB each.
inline constexpr size_t kMaxPathDepth = 256;
// Entries over the bounds above that one layer's facts list (input-over-limit); the rest are counted.
inline constexpr size_t kMaxOverLimitListed = 100;
// Bytes of the text files the inspectors read (package databases, os-release, ld.so.conf, wheel METADATA) and
// of the caches they parse (ld.so.cache, glibc's loader) in one layer, beside the caps per file: a Debian 12 developer machine's come to 2.5 MB (dpkg's status of 1,024
// packages 0.9 MB, the METADATA of 452 wheels 1.6 MB); an image of 10,000 packages stays under 15 MB.
inline constexpr uint64_t kMaxLayerContentBytes = uint64_t(32) << 20;

// --- Whole images: what all layers' facts hold together until they are merged ---

// Entries of all layers together: the largest real images (a whole Debian developer machine, TeX Live
// beside CUDA) hold some 500,000; 2^20 entries take some 120 MiB.
inline constexpr size_t kMaxImageEntries = size_t(1) << 20;
// Bytes of those text files and caches, all layers together: each layer's own total is bounded
// above, and a layer rewriting a package database keeps a copy of it, so 1,024 layers would hold 32 GiB.
inline constexpr uint64_t kMaxImageContentBytes = uint64_t(64) << 20;

// --- Archives, blobs and JSON documents ---

// Manifests, indexes and configs are never this large: a config with a long history is some 100 KB.
inline constexpr uint64_t kMaxJsonBlob = 16 << 20;
// JSON from outside the program (image blobs, registry and Engine answers, settings, caches) is nested
// no deeper than this: nlohmann's copies and printing recurse, and a document 150,000 levels deep
// overflows the stack. Real documents stay under 10 (an OCI index inside an index, annotations).
inline constexpr int kMaxJsonDepth = 64;
// Non-layer members of a streamed archive (manifests, configs, repositories) kept in memory in all.
inline constexpr uint64_t kMaxStreamKeptBytes = 64 << 20;
// Bytes the members of one image archive (docker save, an OCI archive, an Engine's export) claim in their
// tar headers, all together: the largest real images (CUDA, ML frameworks) are some tens of GiB. Checked
// when a header is read, so a member that claims 2^62 bytes is refused before a byte of it is hashed.
inline constexpr uint64_t kMaxArchiveBytes = uint64_t(256) << 30;
// Hard links an archive member is followed through to its file: docker save's links go one hop.
inline constexpr int kMaxArchiveLinkHops = 16;
// Symbolic links one path lookup follows: Linux's MAXSYMLINKS, past which the kernel says ELOOP too.
inline constexpr int kMaxSymlinkHops = 40;

// --- Dynamic loader emulation ---

// Entries of the image's LD_LIBRARY_PATH: real images set a handful (CUDA images: 4). Each entry is searched
// for every library name of every program.
inline constexpr size_t kMaxLdLibraryPathEntries = 256;
// ld.so.conf includes nested in includes: Debian's go one level deep (ld.so.conf.d/*.conf).
inline constexpr int kMaxLdSoConfDepth = 16;
// ld.so.conf files named, the main one and every match of its include globs: a Debian 12 developer machine
// with CUDA names 7.
inline constexpr size_t kMaxLdSoConfFiles = 1024;
// Lines of all ld.so.conf files read together: that machine's have 15.
inline constexpr size_t kMaxLdSoConfLines = 65536;
// Paths the loader emulation tries and library names it loads, every program counted: Alpine's minirootfs
// takes 40, a Debian 12 developer machine's /usr and /etc (4,667 ELF files) 13,430. Each distinct path tried
// is cached: a hostile search reaching the limit costs some 6 CPU seconds and 500 MiB.
inline constexpr uint64_t kMaxLoaderSteps = uint64_t(1) << 21;
// Memoised library closures nested this deep; beyond, libraries load in place (recursion stays bounded).
inline constexpr int kMaxClosureDepth = 64;
// Entries of an ld.so.cache: real caches hold a few thousand; a bound on memory for hostile bytes.
inline constexpr uint32_t kMaxLdSoCacheEntries = 1u << 18;
// Names in an ld.so.cache's glibc-hwcaps extension: real caches name under 10.
inline constexpr uint32_t kMaxLdSoCacheHwcapsNames = 1u << 12;
// A run of strings in ld.so longer than this is no list of system directories: glibc's has 2 to 4.
inline constexpr size_t kMaxGlibcSystemDirs = 16;
// A string in ld.so longer than this is no system directory: real ones ("/usr/lib/x86_64-linux-gnu/") are 30.
inline constexpr size_t kMaxGlibcSystemDirLength = 256;

// --- Files and answers around the image ---

// Dockerfiles given with --dockerfile: real ones are a few KB.
inline constexpr uint64_t kMaxDockerfileBytes = 8u << 20;
// Settings files (--config, .imgaudit.yaml): real ones are a few hundred bytes.
inline constexpr uint64_t kMaxSettingsFile = 1 << 20;
// Values in a settings file once YAML aliases are expanded: real ones hold a few hundred, and each level of
// `[*a, *a, ...]` multiplies (nine lines name a billion).
inline constexpr size_t kMaxSettingsValues = 100000;
// An earlier JSON report given with --baseline, read whole: a report of one image is some KB to a few MB (the
// binaries' facts of a 1.1 GiB image are 2 MB); a run of many images that exceeds it is compared image by image.
inline constexpr uint64_t kMaxBaselineBytes = uint64_t(128) << 20;
// Finding paths kept from it, all images together (some 40 bytes each): 343 findings of a messy image list some
// 2,000 paths.
inline constexpr size_t kMaxBaselinePaths = size_t(2) << 20;
// Layers, packages and shared libraries kept from it, all images together (some 100 bytes each, so at most
// some 100 MiB): a Debian image with build tools lists some 400 packages and 600 libraries.
inline constexpr size_t kMaxBaselineRecords = size_t(1) << 20;
// How long a read of a pipe (--dockerfile <(...), a named FIFO) waits in poll before it reads again: a pipe's
// writer that leaves without writing is not always woken for, so the read looks again this often.
inline constexpr int kPipeWaitMs = 100;
// Symbolic links followed from a report file named with -o, to learn whether they end at a terminal, pipe or
// device (/dev/stdout is two): the kernel itself stops at 40.
inline constexpr size_t kMaxReportLinks = 8;
// Docker's config.json (credentials, the Engine's endpoint) and a context's meta.json: real ones are a few KB.
inline constexpr uint64_t kMaxDockerConfigFile = 1 << 20;
// Image names and IDs the Engine is asked for: Docker's own references stay under 300 characters.
inline constexpr size_t kMaxEngineImageName = 512;
// Engine answers other than the image export: an image inspect answer is some KB.
inline constexpr uint64_t kMaxEngineAnswer = 4 << 20;
// What a credential helper prints: a JSON credential of some hundred bytes.
inline constexpr size_t kMaxCredentialHelperOutput = 1 << 20;
// A registry token answer: JWTs are some KB.
inline constexpr uint64_t kMaxTokenResponse = 1 << 20;
// A token's lifetime in seconds, its answer's expires_in clamped to 1 to this before any arithmetic: 2^63-1
// would overflow the expiry's time point. Real ones are 60 s to 12 h; one said to live longer is only asked
// for again after a day.
inline constexpr long kMaxTokenLifetimeSeconds = 24 * 3600;
// A small answer (a manifest, index, config, token, list page, error body, an Engine's inspect answer) is
// complete within this many --timeout from its request's start, 120 s by default: --timeout alone only
// detects silence, and one byte a second keeps a 4 KB answer going for an hour. 16 MiB, the largest manifest
// read, comes in 120 s at 1.2 Mbit/s. Blob downloads have no such deadline: their size has no bound.
inline constexpr long kSmallAnswerTimeouts = 4;
// The body of a registry's error answer kept for the message (and a tags list): some hundred bytes.
inline constexpr uint64_t kMaxErrorBody = 64 << 10;
// HTTP redirects one request follows: registries redirect blobs once, to their storage.
inline constexpr long kMaxRedirects = 8;
// Authentication rounds one request makes (a 401 after a fresh token is final): registries need 1.
inline constexpr int kMaxAuthRounds = 2;
// Repository names with their registry: the distribution spec's 255 characters.
inline constexpr size_t kMaxRepositoryNameLength = 255;
// A whole image reference: longer than any valid one (a 255-character name, a 128-character tag, a
// digest). Checked first, as std::regex recurses once a character and a long text overflows the stack.
inline constexpr size_t kMaxReferenceLength = 512;
// Pages of one registry list (the catalog, one repository's tags): asked 100 names a page, this is 409,600
// names, past the bounds below; a registry that sends pages of a few names, or an endless chain of links,
// stops here.
inline constexpr size_t kMaxListPages = 4096;
// Bytes of one page of a registry list: a page of 100 names of 255 characters is 26 KB; a registry that
// ignores the page size (Debian 12's docker-registry does for tags) and sends 65,536 names of 100
// characters in one page stays under it.
inline constexpr uint64_t kMaxListPageBytes = 8 << 20;
// Bytes of all the pages of one registry list together: the largest catalog the bounds below let through
// (65,536 names of 255 characters) is 17 MB. Without it, 4096 pages of 8 MiB of whitespace are 32 GiB read.
inline constexpr uint64_t kMaxListBytes = 32 << 20;
// Invalid names (repositories, tags) of one registry listing that a note names each: they are skipped, not
// fatal, so that one bad name does not stop a fleet's scan; past this many they are only counted.
inline constexpr size_t kMaxSkippedNamesNoted = 100;
// Bytes of the URL of a list's next page: docker-registry's carry the last name (255 characters, some
// 800 escaped); every page's is kept to find loops.
inline constexpr size_t kMaxPageLinkBytes = 8192;
// Repositories a registry's catalog lists: the largest private registries hold some thousands.
inline constexpr size_t kMaxRegistryRepositories = 65536;
// Tags of one repository: registries that tag every commit keep some thousands.
inline constexpr size_t kMaxRepositoryTags = 65536;
// Tagged images one registry listing returns, all repositories together: each is audited, so a real
// fleet is some thousands; a million references take some 100 MiB.
inline constexpr size_t kMaxRegistryImages = size_t(1) << 20;
// Easy handles of finished HTTP transfers kept for the next ones, each with its open connections (curl keeps
// up to 5 a handle): a run opens as many at once as it has threads, some 2 to 4 a thread.
inline constexpr size_t kIdleHttpHandles = 32;
// Attempts at a request that fails transiently (5xx, 429, a dropped connection).
inline constexpr int kMaxAttempts = 4;
// A 429 asking to wait longer than this is an error, not a wait.
inline constexpr long kMaxRetryAfterSeconds = 30;

// containerd's API (gRPC on its socket): one answer message. Its Read answers come in chunks of 1 MiB, an
// image record or a content record is some hundred bytes; gRPC's own clients refuse over 4 MiB by default.
inline constexpr uint64_t kMaxGrpcMessage = 4 << 20;
// Bytes of a gRPC status message shown in an error ("image \"x\": not found").
inline constexpr size_t kGrpcStatusShown = 300;

// Many images a run (IMAGE..., --images-from, --registry).
// Images one run audits; a longer list is an error, not a cut.
inline constexpr size_t kMaxImagesPerRun = 100000;
// An --images-from file, and one line of it (a reference or a path).
inline constexpr uint64_t kMaxImageListBytes = uint64_t(64) << 20;
inline constexpr size_t kMaxImageListLine = 4096;
// N of --shard K/N.
inline constexpr uint64_t kMaxShards = 100000;

// --- The shared layer-facts cache (--cache redis://) ---
// An answer past these bounds, or a server past these times, turns the shared cache off for the run with one
// warning: it costs speed, never the audit.

// One layer's facts as the caches keep them (JSON): a layer of 35,000 files takes 4 MB, the largest real
// ones (470,000 files) some 60 MB; the bounds above (kMaxLayerEntries, kMaxLayerContentBytes) keep any
// layer under this. A larger value is no entry: it is not stored, and one read back is rebuilt. Redis's
// own bound on a value (proto-max-bulk-len) is 512 MB.
inline constexpr size_t kMaxLayerFactsEntry = size_t(256) << 20;
// Any other answer (a status, an error, a number): Redis's are under 200 bytes.
inline constexpr size_t kMaxRedisShortReply = 64 << 10;
// Bytes around an answer's payload: its type, its length and two CRLFs.
inline constexpr size_t kRedisReplyFraming = 64;
// Digits of a number or a string length in an answer: 18 keep it within a 64-bit integer.
inline constexpr size_t kMaxRedisNumberDigits = 18;
// Bytes of a server's error text a warning quotes.
inline constexpr size_t kRedisErrorShown = 200;
// The first line of a Redis answer (a status, an error, a length): Redis's are under 200 bytes. Past it the
// answer is malformed, however long the server goes on sending.
inline constexpr size_t kMaxRedisFirstLine = 4096;
// Digits of the database in a redis:// URL (/15): Redis has 16 by default.
inline constexpr size_t kMaxRedisDbDigits = 9;
// To resolve, connect and finish the TLS handshake: a Redis on the network answers in milliseconds.
inline constexpr long kRedisConnectTimeoutMs = 5000;
// Without a byte sent or received during a command: the server hangs (stopped, or a dead link).
inline constexpr long kRedisIdleTimeoutMs = 5000;
// One command and its whole answer, however steadily the bytes come: the largest value at 4 MB/s. A
// server that trickles bytes holds a worker no longer than this.
inline constexpr long kRedisCommandTimeoutMs = 60000;
// A layer one process is reading is claimed (imgaudit:reading:...) for this long, so that the other
// processes sharing the Redis wait for its facts instead of reading it too. A claim whose owner died
// lapses after it; a reader slower than it is joined by the next waiter, which costs time only.
inline constexpr int64_t kRedisClaimTtlMs = 120000;
// A waiter looks for the facts again after this, doubling up to the second bound; it waits at most
// kRedisClaimTtlMs in all, then reads the layer itself.
inline constexpr int64_t kRedisClaimFirstPollMs = 10;
inline constexpr int64_t kRedisClaimMaxPollMs = 200;
// --cache-key-file: a key is 32 to 4096 bytes (openssl rand -hex 32 writes 64 and a newline). Fewer could be
// guessed; more is no key file.
inline constexpr uint64_t kMaxCacheKeyFile = 4096;
inline constexpr size_t kMinCacheKeyBytes = 32;
// --password-stdin: registry passwords and tokens (a cloud's access token) are some KB.
inline constexpr uint64_t kMaxPasswordBytes = 64 << 10;
// SARIF that GitHub code scanning accepts (its documented upload limits): locations of one result, results of
// one run. A finding with more paths lists the first ones and says how many more (properties.paths and the
// JSON report hold all); a run with more results keeps the most severe and says how many it left out. A
// report on several images is one run (GitHub takes at most 20 a file), whatever their number.
inline constexpr size_t kMaxSarifLocations = 1000;
inline constexpr size_t kMaxSarifResults = 25000;
// Markdown for pull-request comments: GitHub takes at most 65,536 characters a comment (the job summary takes
// 1 MiB). A longer report keeps its verdict, counts and the first rows and details that fit, and says what
// it left out. In a report on several images each image's section is cut to a part of it, so that the
// first image alone cannot take the whole comment; and a table cell (a finding's message) to some bytes.
inline constexpr size_t kMaxMarkdownChars = 65536;
inline constexpr size_t kMaxMarkdownImageChars = 16384;
inline constexpr size_t kMaxMarkdownCellBytes = 300;
// The layer view (the JSON's layers[].largest_folders, the HTML report's bars): the folders listed a layer, by
// the bytes its files take there. A handful tells where the bytes went; the JSON of each file has them all.
inline constexpr size_t kLayerFoldersListed = 8;
// The HTML report lists every finding and every path, for a person to search; a hostile image's millions are
// cut at these, with "and N more" pointing at the JSON, so the page still opens.
inline constexpr size_t kHtmlFindingsListed = 1000;
inline constexpr size_t kHtmlPathsListed = 2000;
// --cache-ttl: at most 10 years, which Redis's expiry in milliseconds holds easily.
inline constexpr int64_t kMaxCacheTtlMs = int64_t(3650) * 24 * 3600 * 1000;

// --- The cache folder's own commands (imgaudit cache info, cache clean) ---

// Names read from the cache folder's entry folders (blobs/sha256, layers/sha256, tmp), all together, by one
// `cache info` or `cache clean`: a fleet of 100,000 images of 10 layers leaves some 1.2 million entries
// (two blobs an image, the layers' facts shared between images), which are read in a few seconds. A folder
// holding more is counted (or cleaned) that far and says so; a second clean goes on where it stopped.
inline constexpr uint64_t kMaxCacheNamesVisited = uint64_t(1) << 22;
// A temporary file (tmp/*.part) younger than this may be one a running audit is still writing and about to
// rename into place: `cache clean` leaves it. A write takes well under a second (the largest layer facts
// are some 60 MB), so an older one was left by a run that died.
inline constexpr int64_t kCacheTempFileGraceSeconds = 3600;

}  // namespace imgaudit
