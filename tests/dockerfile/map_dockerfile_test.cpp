// Image history and layers matched to Dockerfile lines, for images whose
// history is written as BuildKit and as the classic builder write it.
#include <gtest/gtest.h>

#include "dockerfile/dockerfile_map.h"
#include "layer/read_layers.h"
#include "test_support.h"
#include "util/error.h"
#include "writer/image_writer.h"

namespace imgaudit {
namespace {

const char* const kMultiStage =
    "# syntax=docker/dockerfile:1\n"                    // 1
    "ARG ALPINE=3.20\n"                                  // 2
    "FROM gcc:13 AS build\n"                             // 3
    "WORKDIR /src\n"                                     // 4
    "RUN apk add --no-cache tzdata\n"                    // 5
    "COPY . .\n"                                         // 6
    "RUN make app\n"                                     // 7
    "\n"                                                 // 8
    "FROM alpine:${ALPINE}\n"                            // 9
    "ARG VERSION=1.0\n"                                  // 10
    "RUN apk add --no-cache \\\n"                        // 11
    "      tzdata\n"                                     // 12
    "RUN echo $VERSION > /etc/app-version\n"             // 13
    "COPY --from=build /src/app /usr/local/bin/app\n"    // 14
    "ENV TZ=Asia/Ho_Chi_Minh \\\n"                       // 15
    "    APP_MODE=prod\n"                                // 16
    "USER app\n"                                         // 17
    "CMD [\"app\"]\n";                                   // 18

LayerBlob layer(const std::string& path, const std::string& content, const std::string& created_by) {
  TarEntrySpec f = TarEntrySpec::file(path, content);
  return {make_layer_blob({f}, Compression::Gzip), Compression::Gzip, created_by};
}

LayerBlob dir_layer(const std::string& path, const std::string& created_by) {
  return {make_layer_blob({TarEntrySpec::dir(path)}, Compression::Gzip), Compression::Gzip, created_by};
}

// The image as the writer stores it, read back through the project's reader.
ImageInfo written_image(const ImageSpec& spec) {
  test::TempDir tmp;
  write_oci_layout(spec, tmp / "layout");
  auto source = open_image("oci:" + tmp / "layout", std::nullopt);
  std::vector<LayerFacts> layers = read_layers(*source, 1);
  return make_image_info(*source, layers);
}

ImageSpec multi_stage_image(bool buildkit) {
  ImageSpec spec;
  spec.env = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "TZ=Asia/Ho_Chi_Minh", "APP_MODE=prod"};
  spec.user = "app";
  spec.cmd = {"app"};
  if (buildkit) {
    spec.layers = {layer("etc/alpine-release", "3.20.3\n", "ADD alpine-minirootfs-3.20.3-x86_64.tar.gz / # buildkit"),
                   layer("usr/share/zoneinfo/UTC", "TZif", "RUN /bin/sh -c apk add --no-cache       tzdata # buildkit"),
                   layer("etc/app-version", "1.0\n", "RUN |1 VERSION=1.0 /bin/sh -c echo $VERSION > /etc/app-version # buildkit"),
                   layer("usr/local/bin/app", "app", "COPY --from=build /src/app /usr/local/bin/app # buildkit")};
    spec.empty_history = {{1, "CMD [\"/bin/sh\"]"},
                          {1, "ARG VERSION=1.0"},
                          {4, "ENV TZ=Asia/Ho_Chi_Minh APP_MODE=prod"},
                          {4, "USER app"},
                          {4, "CMD [\"app\"]"}};
  } else {
    spec.layers = {layer("etc/alpine-release", "3.20.3\n", "/bin/sh -c #(nop) ADD file:7f3e1b4f5c0b9e2a in / "),
                   layer("usr/share/zoneinfo/UTC", "TZif", "|1 VERSION=1.0 /bin/sh -c apk add --no-cache       tzdata"),
                   layer("etc/app-version", "1.0\n", "|1 VERSION=1.0 /bin/sh -c echo $VERSION > /etc/app-version"),
                   layer("usr/local/bin/app", "app", "/bin/sh -c #(nop) COPY file:0c1d2e3f4a5b6c7d in /usr/local/bin/app ")};
    spec.empty_history = {{1, "/bin/sh -c #(nop)  CMD [\"/bin/sh\"]"},
                          {1, "/bin/sh -c #(nop)  ARG VERSION=1.0"},
                          {4, "/bin/sh -c #(nop)  ENV TZ=Asia/Ho_Chi_Minh APP_MODE=prod"},
                          {4, "/bin/sh -c #(nop)  USER app"},
                          {4, "/bin/sh -c #(nop)  CMD [\"app\"]"}};
  }
  return spec;
}

std::pair<int, int> lines(const std::optional<DockerfileLocation>& l) {
  if (!l) return {0, 0};
  return {l->first_line, l->last_line};
}

void expect_multi_stage_mapping(const DockerfileMap& map) {
  // Layers: the base image's maps to the last stage's FROM; the build stage's
  // identical `RUN apk add` (line 5) never made a layer of this image.
  EXPECT_EQ(lines(map.for_layer(0)), std::make_pair(9, 9));
  EXPECT_EQ(lines(map.for_layer(1)), std::make_pair(11, 12));
  EXPECT_EQ(lines(map.for_layer(2)), std::make_pair(13, 13));
  EXPECT_EQ(lines(map.for_layer(3)), std::make_pair(14, 14));
  EXPECT_FALSE(map.for_layer(4));
  EXPECT_FALSE(map.for_layer(-1));

  // History: ADD, CMD ["/bin/sh"] (base), ARG, RUN, RUN, COPY, ENV, USER, CMD.
  const std::pair<int, int> expected[] = {{9, 9},   {9, 9},   {10, 10}, {11, 12}, {13, 13},
                                          {14, 14}, {15, 16}, {17, 17}, {18, 18}};
  for (size_t i = 0; i < std::size(expected); ++i) EXPECT_EQ(lines(map.for_history(i)), expected[i]) << "entry " << i;
  EXPECT_FALSE(map.for_history(9));

  auto copy = map.for_layer(3);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->instruction, "COPY --from=build /src/app /usr/local/bin/app");
  EXPECT_EQ(copy->stage, "1");
  EXPECT_EQ(copy->stage_index, 1);
  EXPECT_EQ(copy->path, "Dockerfile");
  EXPECT_EQ(map.for_layer(1)->instruction, "RUN apk add --no-cache tzdata");

  EXPECT_EQ(lines(map.for_env("TZ")), std::make_pair(15, 16));
  EXPECT_EQ(lines(map.for_env("APP_MODE")), std::make_pair(15, 16));
  EXPECT_EQ(lines(map.for_env("PATH")), std::make_pair(9, 9));  // the base image set it
  EXPECT_FALSE(map.for_env("LD_PRELOAD"));
  EXPECT_TRUE(map.has_user_instruction());
  EXPECT_EQ(lines(map.for_user()), std::make_pair(17, 17));
}

TEST(MapDockerfile, MultiStageBuildKitHistory) {
  ImageInfo image = written_image(multi_stage_image(true));
  ASSERT_EQ(image.layers.size(), 4u);
  ASSERT_EQ(image.history.size(), 9u);
  DockerfileMap map(parse_dockerfile(kMultiStage, "Dockerfile"), image);
  expect_multi_stage_mapping(map);
  EXPECT_TRUE(map.mismatches().empty());
}

TEST(MapDockerfile, MultiStageClassicBuilderHistory) {
  ImageInfo image = written_image(multi_stage_image(false));
  ASSERT_EQ(image.layers.size(), 4u);
  expect_multi_stage_mapping(DockerfileMap(parse_dockerfile(kMultiStage, "Dockerfile"), image));
}

TEST(MapDockerfile, ReadsTheFileAtPath) {
  test::TempDir tmp;
  test::write_file(tmp / "Dockerfile", kMultiStage);
  DockerfileMap map = map_dockerfile(tmp / "Dockerfile", written_image(multi_stage_image(true)));
  EXPECT_EQ(map.for_layer(1)->path, tmp / "Dockerfile");
  EXPECT_EQ(lines(map.for_layer(1)), std::make_pair(11, 12));
  EXPECT_THROW(map_dockerfile(tmp / "nope", ImageInfo{}), InputError);
}

// Built from a base stage that adds curl, then a final stage with the app.
ImageSpec two_stage_app_image() {
  ImageSpec spec;
  spec.layers = {layer("etc/alpine-release", "3.20.3\n", "ADD alpine-minirootfs-3.20.3-x86_64.tar.gz / # buildkit"),
                 layer("usr/bin/curl", "curl", "RUN /bin/sh -c apk add curl # buildkit"),
                 dir_layer("app", "WORKDIR /app"),
                 layer("app/app.py", "print()", "COPY app.py . # buildkit")};
  spec.empty_history = {{1, "CMD [\"/bin/sh\"]"}};
  return spec;
}

TEST(MapDockerfile, StageBuiltFromAnEarlierStageCarriesItsLayers) {
  const char* dockerfile =
      "FROM alpine:3.20 AS base\n"   // 1
      "RUN apk add curl\n"           // 2
      "FROM base AS final\n"         // 3
      "WORKDIR /app\n"               // 4
      "COPY app.py .\n";             // 5
  ImageSpec spec = two_stage_app_image();
  DockerfileMap map(parse_dockerfile(dockerfile, "Dockerfile"), written_image(spec));
  EXPECT_EQ(lines(map.for_layer(0)), std::make_pair(1, 1));
  EXPECT_EQ(lines(map.for_layer(1)), std::make_pair(2, 2));
  EXPECT_EQ(map.for_layer(1)->stage, "base");
  EXPECT_EQ(lines(map.for_layer(2)), std::make_pair(4, 4));
  EXPECT_EQ(lines(map.for_layer(3)), std::make_pair(5, 5));
  EXPECT_EQ(map.for_layer(3)->stage, "final");
  EXPECT_FALSE(map.has_user_instruction());
  EXPECT_EQ(lines(map.for_user()), std::make_pair(5, 5));  // where a USER would go
}

TEST(MapDockerfile, CustomShellHeredocAndRelativeCopy) {
  const char* dockerfile =
      "FROM debian:12\n"                      // 1
      "SHELL [\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"]\n"  // 2
      "WORKDIR /srv\n"                        // 3
      "RUN <<EOF\n"                           // 4
      "apt-get update\n"                      // 5
      "apt-get install -y curl\n"             // 6
      "EOF\n"                                 // 7
      "RUN curl -V | head -1\n"               // 8
      "COPY [\"a b.txt\", \"data/\"]\n";      // 9
  ImageSpec spec;
  spec.layers = {layer("etc/debian_version", "12\n", "/bin/sh -c #(nop) ADD file:1a2b3c in / "),
                 dir_layer("srv", "WORKDIR /srv"),
                 layer("usr/bin/curl", "curl", "RUN /bin/bash -o pipefail -c apt-get update\napt-get install -y curl\n # buildkit"),
                 layer("etc/curl-version", "x", "RUN /bin/bash -o pipefail -c curl -V | head -1 # buildkit"),
                 layer("srv/data/a b.txt", "x", "/bin/sh -c #(nop) COPY file:9f8e7d in /srv/data/ ")};
  spec.empty_history = {{1, "/bin/sh -c #(nop)  CMD [\"bash\"]"}, {1, "SHELL [/bin/bash -o pipefail -c]"}};
  DockerfileMap map(parse_dockerfile(dockerfile, "Dockerfile"), written_image(spec));
  EXPECT_EQ(lines(map.for_layer(0)), std::make_pair(1, 1));
  EXPECT_EQ(lines(map.for_layer(1)), std::make_pair(3, 3));
  EXPECT_EQ(lines(map.for_layer(2)), std::make_pair(4, 7));
  EXPECT_EQ(lines(map.for_layer(3)), std::make_pair(8, 8));
  EXPECT_EQ(lines(map.for_layer(4)), std::make_pair(9, 9));
  EXPECT_EQ(lines(map.for_history(1)), std::make_pair(1, 1));
  EXPECT_EQ(lines(map.for_history(2)), std::make_pair(2, 2));
}

TEST(MapDockerfile, ADockerfileThatDidNotBuildTheImageMapsNothing) {
  ImageInfo image = written_image(multi_stage_image(true));
  DockerfileMap map(parse_dockerfile("FROM debian:12\nRUN apt-get install -y python3\nCOPY main.py /srv/\n", "Dockerfile"),
                    image);
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(map.for_layer(i)) << i;
  EXPECT_TRUE(map.matches_nothing());
  EXPECT_EQ(map.mismatches(), std::vector<std::string>{
                                  "Dockerfile does not match the image's history: none of its 9 steps comes from an "
                                  "instruction there, so findings carry no Dockerfile line"});
}

TEST(MapDockerfile, AStepChangedSinceTheBuildMapsToNothingAndIsNamed) {
  std::string changed = kMultiStage;
  changed.replace(changed.find("RUN echo $VERSION"), std::string("RUN echo $VERSION").size(), "RUN echo v2");
  DockerfileMap map(parse_dockerfile(changed, "Dockerfile"), written_image(multi_stage_image(true)));
  EXPECT_FALSE(map.matches_nothing());
  EXPECT_EQ(lines(map.for_layer(0)), std::make_pair(9, 9));
  EXPECT_EQ(lines(map.for_layer(1)), std::make_pair(11, 12));
  EXPECT_FALSE(map.for_layer(2)) << "not the FROM line: the step is not this Dockerfile's line 13 any more";
  EXPECT_EQ(lines(map.for_layer(3)), std::make_pair(14, 14));
  EXPECT_EQ(map.mismatches(),
            std::vector<std::string>{"Dockerfile does not match the image's history: step 5 of 9 `RUN |1 VERSION=1.0 "
                                     "/bin/sh -c echo $VERSION > /etc/app-version # buildkit` has no instruction there "
                                     "(findings from it carry no Dockerfile line)"});
}

TEST(MapDockerfile, AChangedFirstStepIsNotTakenForTheBaseImage) {
  const char* dockerfile =
      "FROM alpine:3.20 AS base\n"   // 1
      "RUN apk add wget\n"           // 2: the image was built with curl
      "FROM base AS final\n"         // 3
      "WORKDIR /app\n"               // 4
      "COPY app.py .\n";             // 5
  ImageSpec spec = two_stage_app_image();
  DockerfileMap map(parse_dockerfile(dockerfile, "ci/Dockerfile"), written_image(spec));
  EXPECT_EQ(lines(map.for_layer(0)), std::make_pair(1, 1));
  EXPECT_EQ(lines(map.for_history(1)), std::make_pair(1, 1)) << "the base image's CMD";
  EXPECT_FALSE(map.for_layer(1));
  EXPECT_EQ(lines(map.for_layer(2)), std::make_pair(4, 4));
  EXPECT_EQ(lines(map.for_layer(3)), std::make_pair(5, 5));
  EXPECT_EQ(map.mismatches(),
            std::vector<std::string>{"ci/Dockerfile does not match the image's history: step 3 of 5 `RUN /bin/sh -c apk "
                                     "add curl # buildkit` has no instruction there (findings from it carry no "
                                     "Dockerfile line)"});
}

TEST(MapDockerfile, AFromLineAloneMapsEveryLayerToIt) {
  ImageInfo image = written_image(multi_stage_image(false));
  DockerfileMap map(parse_dockerfile("FROM myapp:1.0\n", "Dockerfile"), image);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(lines(map.for_layer(i)), std::make_pair(1, 1)) << i;
  EXPECT_EQ(lines(map.for_user()), std::make_pair(1, 1));
  EXPECT_FALSE(map.matches_nothing());
  EXPECT_TRUE(map.mismatches().empty());
}

}  // namespace
}  // namespace imgaudit
