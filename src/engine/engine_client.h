#pragma once
#include <memory>
#include <optional>
#include <string>

#include "engine/engine_answers.h"
#include "engine/engine_endpoint.h"
#include "net/http.h"
#include "util/limits.h"

namespace imgaudit {

// The engine could not be spoken to at all: no socket, refused, no answer.
class EngineUnreachable : public InputError {
 public:
  // `why` names the engine and its endpoint; `brief` says what is wrong in a few words ("not running").
  EngineUnreachable(const std::string& why, std::string brief) : InputError(why), brief_(std::move(brief)) {}
  const std::string& brief() const { return brief_; }

 private:
  std::string brief_;
};

// The two calls of the Docker Engine API imgaudit makes, over libcurl
// (CURLOPT_UNIX_SOCKET_PATH for unix:// hosts). Podman serves the same API.
class EngineClient {
 public:
  // `name` names the engine in errors: "Docker Engine", "Podman".
  EngineClient(std::string name, EngineEndpoint endpoint, HttpOptions http);

  // GET /images/{name}/json; nullopt when the engine has no such image.
  std::optional<InspectedImage> inspect(const std::string& image);
  // GET /images/{id}/get: the image as `docker save` writes it, streamed.
  std::unique_ptr<HttpStream> export_image(const std::string& id);

  const EngineEndpoint& endpoint() const { return endpoint_; }
  // "the Docker Engine at unix:///var/run/docker.sock (the default socket)"
  std::string where() const;

 private:
  std::unique_ptr<HttpStream> get(const std::string& path);
  [[noreturn]] void fail(HttpStream& answer, const std::string& what);

  std::string name_;
  EngineEndpoint endpoint_;
  HttpOptions http_;
};

// Throws InputError unless `image` is a name, name:tag, name@digest or an ID
// as the engine takes them (letters, digits and ._:/@-, at most kMaxEngineImageName).
void check_engine_image_name(const std::string& image);

}  // namespace imgaudit
