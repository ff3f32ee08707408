// The CA bundle a libcurl built without one (the release's static build) is given: SSL_CERT_FILE when set,
// else the first of the distributions' places that is a regular file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sys/stat.h>

#include "net/curl_setup.h"

using namespace imgaudit;

namespace {

// SSL_CERT_FILE set for one test and put back as it was.
class CertFileVariable {
 public:
  explicit CertFileVariable(const char* value) {
    if (const char* old = std::getenv("SSL_CERT_FILE")) old_ = old, had_ = true;
    if (value) setenv("SSL_CERT_FILE", value, 1); else unsetenv("SSL_CERT_FILE");
  }
  ~CertFileVariable() {
    if (had_) setenv("SSL_CERT_FILE", old_.c_str(), 1); else unsetenv("SSL_CERT_FILE");
  }

 private:
  std::string old_;
  bool had_ = false;
};

}  // namespace

TEST(CurlSetup, SslCertFileNamesTheBundle) {
  CertFileVariable given("/nonexistent/the-operators-bundle.pem");
  EXPECT_EQ(find_system_ca_bundle(), "/nonexistent/the-operators-bundle.pem");
}

TEST(CurlSetup, WithoutSslCertFileTheFirstBundleThatIsAFile) {
  CertFileVariable unset(nullptr);
  std::string found = find_system_ca_bundle();
  struct stat debian{};
  bool has_debian_bundle = stat("/etc/ssl/certs/ca-certificates.crt", &debian) == 0 && S_ISREG(debian.st_mode);
  if (has_debian_bundle) {
    EXPECT_EQ(found, "/etc/ssl/certs/ca-certificates.crt") << "the first place is Debian's and Alpine's";
  } else {
    struct stat st{};
    EXPECT_TRUE(found.empty() || (stat(found.c_str(), &st) == 0 && S_ISREG(st.st_mode))) << found;
  }
}

TEST(CurlSetup, AnEmptySslCertFileIsAsUnset) {
  std::string unset_result;
  {
    CertFileVariable unset(nullptr);
    unset_result = find_system_ca_bundle();
  }
  CertFileVariable empty("");
  EXPECT_EQ(find_system_ca_bundle(), unset_result);
}
