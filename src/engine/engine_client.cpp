#include "engine/engine_client.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/strings.h"

namespace imgaudit {

void check_engine_image_name(const std::string& image) {
  if (image.empty()) throw InputError("no image name given");
  if (image.size() > kMaxEngineImageName)
    throw InputError("an image name of " + std::to_string(image.size()) + " characters (at most " +
                     std::to_string(kMaxEngineImageName) + ")");
  for (unsigned char c : image)
    if (!std::isalnum(c) && std::strchr("._:/@-", c) == nullptr)
      throw InputError("\"" + printable(image, 100) + "\" is not an image name or ID");
  if (image.find("..") != std::string::npos || image.front() == '/' || image.find("//") != std::string::npos)
    throw InputError("\"" + printable(image, 100) + "\" is not an image name or ID");
}

EngineClient::EngineClient(std::string name, EngineEndpoint endpoint, HttpOptions http)
    : name_(std::move(name)), endpoint_(std::move(endpoint)), http_(std::move(http)) {
  http_.unix_socket = endpoint_.unix_socket;
  if (!endpoint_.ca_cert.empty()) {
    http_.ca_cert = endpoint_.ca_cert;
    http_.tls_hint = "the engine's certificate is checked against " + endpoint_.ca_cert;
  }
  http_.client_cert = endpoint_.client_cert;
  http_.client_key = endpoint_.client_key;
}

std::string EngineClient::where() const { return name_ + " at " + endpoint_.host + " (" + endpoint_.origin + ")"; }

std::unique_ptr<HttpStream> EngineClient::get(const std::string& path) {
  if (!endpoint_.unix_socket.empty()) {
    const std::string denied = where() + ": permission denied on the socket (join the docker group: sudo usermod "
                               "-aG docker $USER, then log in again; or run as root)";
    struct stat st;
    if (stat(endpoint_.unix_socket.c_str(), &st) != 0) {
      if (errno == EACCES) throw InputError(denied);
      throw EngineUnreachable(where() + ": not running (no socket there)", "not running");
    }
    if (!S_ISSOCK(st.st_mode)) throw EngineUnreachable(where() + ": not a socket", endpoint_.unix_socket + " is not a socket");
    if (access(endpoint_.unix_socket.c_str(), R_OK | W_OK) != 0 && errno == EACCES) throw InputError(denied);
  }
  try {
    return HttpStream::open(endpoint_.base_url + path, {}, http_, false);
  } catch (const TransferError& e) {
    // An engine that refuses the client certificate just drops the connection.
    std::string hint = e.transient() && !endpoint_.client_cert.empty()
                           ? " (the engine may not accept the client certificate " + endpoint_.client_cert + ")"
                           : "";
    throw EngineUnreachable(where() + ": " + e.what() + hint, e.what());
  }
}

void EngineClient::fail(HttpStream& answer, const std::string& what) {
  std::string message;
  try {
    message = engine_error_message(answer.read_all(kMaxEngineAnswer));
  } catch (const std::exception&) {
  }
  std::string hint = answer.status() == 400 && starts_with(endpoint_.base_url, "http://") && endpoint_.unix_socket.empty()
                         ? " (if the engine speaks TLS: DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH)"
                         : "";
  throw InputError(where() + ": " + what + ": the engine answered HTTP " + std::to_string(answer.status()) +
                   (message.empty() ? "" : ": " + printable(message, 300)) + hint);
}

std::optional<InspectedImage> EngineClient::inspect(const std::string& image) {
  check_engine_image_name(image);
  std::unique_ptr<HttpStream> answer = get("/images/" + image + "/json");
  if (answer->status() == 404) return std::nullopt;
  if (answer->status() != 200) fail(*answer, "inspecting " + image);
  try {
    return parse_inspect_answer(answer->read_all(kMaxEngineAnswer));
  } catch (const InputError& e) {
    throw InputError(where() + ": inspecting " + image + ": " + e.what());
  }
}

std::unique_ptr<HttpStream> EngineClient::export_image(const std::string& id) {
  check_engine_image_name(id);
  std::unique_ptr<HttpStream> answer = get("/images/" + id + "/get");
  if (answer->status() != 200) fail(*answer, "exporting " + id);
  return answer;
}

}  // namespace imgaudit
