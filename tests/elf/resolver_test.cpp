// Programs that look host names up: a resolver function imported from the
// dynamic symbol table, or, linked statically, a resolver carried inside
// (musl's reads "/etc/resolv.conf", as Go's net package does; glibc's host
// lookups go through __nss_hosts_lookup2).
#include "elf_test_support.h"

namespace imgaudit::test {
namespace {

const char* const kGetaddrinfoC = R"(#include <netdb.h>
#include <stdio.h>
int main(int argc, char** argv) {
  struct addrinfo* ai;
  int rc = getaddrinfo(argc > 1 ? argv[1] : "localhost", NULL, NULL, &ai);
  if (rc == 0) freeaddrinfo(ai);
  printf("%d\n", rc);
  return 0;
}
)";

std::string calling(const std::string& includes, const std::string& call) {
  return includes + "\nint main(int argc, char** argv) { (void)argv; if (argc > 5) { " + call +
         "; } return 0; }\n";
}

TEST(ElfResolvesNames, DynamicProgramImportingGetaddrinfo) {
  TempDir dir;
  std::string gcc = build(dir, "gcc", kGetaddrinfoC, "getaddrinfo");
  std::string musl = build(dir, "musl-gcc", kGetaddrinfoC, "getaddrinfo-musl");
  for (const std::string& path : {gcc, musl}) {
    ASSERT_FALSE(path.empty());
    for (const std::string& copy : {path, stripped_copy(path), sectionless_copy(path)}) {
      ElfFacts f = facts_of_file(copy);
      EXPECT_EQ(f.linkage, Linkage::Dynamic) << copy;
      EXPECT_TRUE(f.resolves_names) << copy;
    }
  }
}

TEST(ElfResolvesNames, EachResolverFunction) {
  TempDir dir;
  const std::string netdb = "#include <netdb.h>\n#include <sys/socket.h>";
  const std::string resolv = "#include <netinet/in.h>\n#include <arpa/nameser.h>\n#include <resolv.h>";
  struct Case {
    const char* name;
    std::string source;
  };
  const Case cases[] = {
      {"gethostbyname", calling(netdb, "gethostbyname(argv[0])")},
      {"gethostbyname2", calling(netdb, "gethostbyname2(argv[0], AF_INET6)")},
      {"gethostbyaddr", calling(netdb, "gethostbyaddr(argv[0], 4, AF_INET)")},
      {"getnameinfo", calling(netdb, "getnameinfo(0, 0, argv[0], 1, 0, 0, 0)")},
      {"res_query", calling(resolv, "unsigned char a[512]; res_query(argv[0], C_IN, T_A, a, sizeof a)")},
      {"res_search", calling(resolv, "unsigned char a[512]; res_search(argv[0], C_IN, T_A, a, sizeof a)")},
      {"res_init", calling(resolv, "res_init()")},
  };
  for (const Case& c : cases)
    for (std::string compiler : {"gcc", "musl-gcc"}) {
      std::string bin = build(dir, compiler, c.source, std::string(c.name) + "-" + compiler);
      ASSERT_FALSE(bin.empty()) << c.name;
      EXPECT_TRUE(facts_of_file(bin).resolves_names) << c.name << " " << compiler;
    }
}

TEST(ElfResolvesNames, StaticProgramCarryingAResolver) {
  TempDir dir;
  std::string musl = build(dir, "musl-gcc", kGetaddrinfoC, "getaddrinfo-musl", "-static");
  // glibc warns that a static getaddrinfo needs its shared NSS modules at run time.
  std::string glibc = build(dir, "gcc", kGetaddrinfoC, "getaddrinfo-glibc", "-static");
  std::string glibc_pie = build(dir, "gcc", kGetaddrinfoC, "getaddrinfo-glibc-pie", "-static-pie");
  for (const std::string& path : {musl, glibc, glibc_pie}) {
    ASSERT_FALSE(path.empty());
    for (const std::string& copy : {path, stripped_copy(path), sectionless_copy(path)}) {
      ElfFacts f = facts_of_file(copy);
      EXPECT_NE(f.linkage, Linkage::Dynamic) << copy;
      EXPECT_TRUE(f.resolves_names) << copy;
    }
  }
}

// Go's net package carries its own resolver, which reads /etc/resolv.conf; with cgo it may call getaddrinfo.
class ElfResolvesNamesGo : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_tool("go")) GTEST_SKIP() << "go (Debian golang-go) not installed";
  }
  // Builds `source` offline, with its own caches in the temporary folder.
  std::string go_build(const std::string& source, const std::string& name, const std::string& env) {
    std::string src = dir_ / (name + ".go"), out = dir_ / name, log;
    write_file(src, source);
    int rc = run("cd '" + dir_.path() + "' && env " + go_env(dir_.path()) + " " + env + " go build -o '" + out +
                     "' '" + src + "' 2>&1",
                 &log);
    EXPECT_EQ(rc, 0) << log;
    return rc == 0 ? out : "";
  }
  TempDir dir_;
};

TEST_F(ElfResolvesNamesGo, NetPackageResolves) {
  const std::string lookup = "package main\n\nimport (\n\t\"fmt\"\n\t\"net\"\n)\n\n"
                             "func main() { fmt.Println(net.LookupHost(\"localhost\")) }\n";
  std::string pure = go_build(lookup, "lookup", "CGO_ENABLED=0");
  std::string cgo = go_build(lookup, "lookup-cgo", "CGO_ENABLED=1");
  ASSERT_FALSE(pure.empty());
  ASSERT_FALSE(cgo.empty());
  for (const std::string& path : {pure, stripped_copy(pure), sectionless_copy(pure)}) {
    ElfFacts f = facts_of_file(path);
    EXPECT_EQ(f.linkage, Linkage::Static) << path;
    EXPECT_TRUE(f.resolves_names) << path;
  }
  ElfFacts c = facts_of_file(cgo);
  EXPECT_EQ(c.linkage, Linkage::Dynamic);
  EXPECT_TRUE(c.resolves_names);

  std::string hello = go_build("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n",
                               "hello", "CGO_ENABLED=0");
  ASSERT_FALSE(hello.empty());
  EXPECT_FALSE(facts_of_file(hello).resolves_names);
}

TEST(ElfResolvesNames, StaticGlibcHostLookups) {
  // glibc's static NSS links its DNS code for users and groups too; host lookups name their NSS database.
  TempDir dir;
  const std::string netdb = "#include <netdb.h>\n#include <stdio.h>";
  std::string hosts = build(dir, "gcc", calling(netdb, "printf(\"%p\\n\", (void*)gethostbyname(argv[0]))"),
                            "gethostbyname", "-static");
  std::string users = build(dir, "gcc", calling("#include <pwd.h>\n#include <stdio.h>",
                                                "printf(\"%p\\n\", (void*)getpwnam(argv[0]))"),
                            "getpwnam", "-static");
  ASSERT_FALSE(hosts.empty());
  ASSERT_FALSE(users.empty());
  ASSERT_NE(read_file(users).find("/etc/resolv.conf"), std::string::npos) << "glibc's static NSS changed";
  for (const std::string& path : {hosts, stripped_copy(hosts)}) {
    ElfFacts f = facts_of_file(path);
    EXPECT_EQ(f.libc, LibcKind::Glibc) << path;
    EXPECT_TRUE(f.resolves_names) << path;
  }
  for (const std::string& path : {users, stripped_copy(users)}) {
    ElfFacts f = facts_of_file(path);
    EXPECT_EQ(f.libc, LibcKind::Glibc) << path;
    EXPECT_FALSE(f.resolves_names) << path;
  }
}

TEST(ElfResolvesNames, HelloDoesNot) {
  TempDir dir;
  for (std::string compiler : {"gcc", "musl-gcc"})
    for (std::string flags : {"", "-static"}) {
      std::string bin = build(dir, compiler, kHelloC, "hello-" + compiler + flags, flags);
      ASSERT_FALSE(bin.empty());
      EXPECT_FALSE(facts_of_file(bin).resolves_names) << compiler << " " << flags;
      EXPECT_FALSE(facts_of_file(stripped_copy(bin)).resolves_names) << compiler << " " << flags;
    }
}

TEST(ElfResolvesNames, DynamicProgramMentioningResolvConfDoesNot) {
  // A program that only names the file (to edit it, say) imports no resolver.
  TempDir dir;
  std::string bin = build(dir, "gcc", R"(#include <stdio.h>
int main(void) { FILE* f = fopen("/etc/resolv.conf", "r"); if (f) fclose(f); return 0; }
)", "names-resolv-conf");
  ASSERT_FALSE(bin.empty());
  EXPECT_FALSE(facts_of_file(bin).resolves_names);
}

TEST(ElfResolvesNames, TheLibcThatDefinesTheResolverDoesNot) {
  TempDir dir;
  std::string musl = build(dir, "musl-gcc", kHelloC, "hello");
  ASSERT_FALSE(musl.empty());
  EXPECT_EQ(facts_of_file(musl).interpreter, native_target().musl_interpreter);
  ElfFacts loader = facts_of_file(native_target().musl_libc_file);  // musl's libc.so, which carries its resolver
  EXPECT_TRUE(loader.is_musl_loader);
  EXPECT_FALSE(loader.resolves_names);

  // A shared library defining getaddrinfo exports it; it imports nothing.
  std::string lib = build(dir, "gcc", R"(struct addrinfo;
int getaddrinfo(const char* n, const char* s, const struct addrinfo* h, struct addrinfo** r) {
  (void)n; (void)s; (void)h; (void)r; return -1;
}
)", "libresolver.so", "-shared -fPIC -Wl,-soname,libresolver.so");
  ASSERT_FALSE(lib.empty());
  EXPECT_FALSE(facts_of_file(lib).resolves_names);
}

}  // namespace
}  // namespace imgaudit::test
