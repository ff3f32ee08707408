// The next page of a registry list from its Link header lines, resolved against the request's URL.
#include <gtest/gtest.h>

#include "net/page_links.h"
#include "util/error.h"

namespace imgaudit {
namespace {

const std::string kRequest = "http://127.0.0.1:5000/v2/_catalog?n=2";

std::string next_of(const std::vector<std::string>& lines, const std::string& request = kRequest) {
  try {
    auto next = next_page_path(lines, request);
    return next ? *next : "(last page)";
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

TEST(PageLinks, RelativeAndAbsoluteLinksOnTheSameHost) {
  EXPECT_EQ(next_of({R"(</v2/_catalog?last=b&n=2>; rel="next")"}), "/v2/_catalog?last=b&n=2");
  EXPECT_EQ(next_of({R"(<?last=b&n=2>; rel=next)"}), "/v2/_catalog?last=b&n=2");
  EXPECT_EQ(next_of({R"(<http://127.0.0.1:5000/v2/_catalog?last=c>; rel="next")"}), "/v2/_catalog?last=c");
  EXPECT_EQ(next_of({R"(<https://ghcr.io:443/v2/org/app/tags/list?last=v9>; rel="next")"},
                    "https://ghcr.io/v2/org/app/tags/list?n=100"),
            "/v2/org/app/tags/list?last=v9");
  EXPECT_EQ(next_of({R"(<HTTP://127.0.0.1:5000/v2/x/tags/list?last=a>; rel="next")"}), "/v2/x/tags/list?last=a");
}

TEST(PageLinks, TheNextAmongOtherLinksAndLines) {
  EXPECT_EQ(next_of({R"(</v2/_catalog?last=a>; rel="prev", </v2/_catalog?last=c>; rel="next")"}), "/v2/_catalog?last=c");
  EXPECT_EQ(next_of({R"(</v2/_catalog?last=a>; rel="prev")", R"(</v2/_catalog?last=c>; title="a;b, c"; rel="next")"}),
            "/v2/_catalog?last=c");
  EXPECT_EQ(next_of({R"(</v2/_catalog?last=c>; REL="last Next")"}), "/v2/_catalog?last=c");
  EXPECT_EQ(next_of({R"(</v2/_catalog?last=a>; rel="prev")"}), "(last page)");
  EXPECT_EQ(next_of({}), "(last page)");
  EXPECT_EQ(next_of({""}), "(last page)");
}

TEST(PageLinks, LinksThatAreRefused) {
  EXPECT_EQ(next_of({R"(<http://other.example/v2/_catalog?last=b>; rel="next")"}),
            "error: the next page's link \"http://other.example/v2/_catalog?last=b\" leads to another host");
  EXPECT_EQ(next_of({R"(<http://127.0.0.1:5001/v2/_catalog>; rel="next")"}),
            "error: the next page's link \"http://127.0.0.1:5001/v2/_catalog\" leads to another host");
  EXPECT_EQ(next_of({R"(<https://127.0.0.1:5000/v2/_catalog>; rel="next")"}),
            "error: the next page's link \"https://127.0.0.1:5000/v2/_catalog\" leads to another host");
  EXPECT_EQ(next_of({R"(<//other.example/v2/_catalog>; rel="next")"}),
            "error: the next page's link \"//other.example/v2/_catalog\" leads to another host");
  EXPECT_EQ(next_of({R"(<http://user:pw@127.0.0.1:5000/v2/_catalog>; rel="next")"}),
            "error: the next page's link carries credentials");
  EXPECT_EQ(next_of({R"(</v2/../admin>; rel="next")"}), "error: the next page's link \"/v2/../admin\" leaves the registry API (/v2/)");
  // libcurl escapes a space in the query, as a browser does.
  EXPECT_EQ(next_of({"</v2/_catalog?last=a b>; rel=\"next\""}), "/v2/_catalog?last=a+b");
  EXPECT_EQ(next_of({"</v2/_catalog?last=\x1b[2J>; rel=\"next\""}),
            "error: the next page's link \"/v2/_catalog?last=\\x1b[2J\" is not a URL");
  EXPECT_EQ(next_of({R"(</v2/_catalog?last=a>; rel="next", </v2/_catalog?last=b>; rel="next")"}),
            "error: two different next pages in the Link header");
  EXPECT_EQ(next_of({"</v2/_catalog?last=" + std::string(9000, 'a') + ">; rel=\"next\""}),
            "error: the next page's link is 9018 bytes long, longer than the limit of 8192");
}

TEST(PageLinks, MalformedHeaders) {
  EXPECT_EQ(next_of({R"(/v2/_catalog?last=b; rel="next")"}), "error: malformed Link header \"/v2/_catalog?last=b; rel=\"next\"\"");
  EXPECT_EQ(next_of({R"(</v2/_catalog?last=b; rel="next")"}), "error: malformed Link header \"</v2/_catalog?last=b; rel=\"next\"\"");
  EXPECT_EQ(next_of({R"(</v2/_catalog>; rel="next)"}), "error: malformed Link header \"</v2/_catalog>; rel=\"next\"");
  EXPECT_EQ(next_of({R"(</v2/_catalog> rel="next")"}), "error: malformed Link header \"</v2/_catalog> rel=\"next\"\"");
}

}  // namespace
}  // namespace imgaudit
