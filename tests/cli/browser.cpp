#include "browser.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <sstream>
#include <thread>

#include "test_support.h"
#include "util/strings.h"

namespace imgaudit::test {

namespace {

// A TCP listener on 127.0.0.1 that reads each connection's request line and closes it: the proxy Chromium
// sends every request to, so that a page that fetches anything is seen doing so.
class CountingListener {
 public:
  CountingListener() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(fd_, 16) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      return;
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~CountingListener() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) close(fd_);
  }
  int port() const { return port_; }
  std::vector<std::string> request_lines() {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      int c = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      std::string line = "(nothing read)";
      pollfd q{c, POLLIN, 0};
      char buf[512];
      ssize_t n = poll(&q, 1, 2000) > 0 ? read(c, buf, sizeof buf) : -1;
      if (n > 0) line = std::string(buf, static_cast<size_t>(n)).substr(0, std::string(buf, static_cast<size_t>(n)).find('\r'));
      close(c);
      std::lock_guard<std::mutex> lock(mutex_);
      lines_.push_back(line);
    }
  }
  int fd_ = -1, port_ = 0;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::vector<std::string> lines_;
  std::thread thread_;
};

// Chromium as root in a container: no sandbox, no GPU, none of its own background requests, a fresh
// profile, console messages on standard error, and every request through `proxy_port`, localhost's too.
std::string chromium_command(const std::string& profile, int proxy_port) {
  return "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
         "--disable-background-networking --disable-component-update --disable-sync --disable-extensions "
         "--hide-scrollbars --user-data-dir=" + shell_quoted(profile) +
         " --proxy-server=http://127.0.0.1:" + std::to_string(proxy_port) +
         " --proxy-bypass-list='<-loopback>' --enable-logging=stderr --v=0 ";
}

// A request Chromium makes for itself whatever the page (its clock, component updates, sign-in), to Google's
// hosts, which a report's page has no reason to name.
bool browsers_own(const std::string& request_line) {
  const std::vector<std::string> words = split(request_line, " ");
  if (words.size() < 2) return false;
  std::string host = words[1];
  if (starts_with(host, "http://")) host = host.substr(7);
  host = host.substr(0, host.find_first_of(":/"));
  for (const char* own : {".google.com", ".googleapis.com", ".gstatic.com"})
    if (ends_with(host, own)) return true;
  return false;
}

const char* const kReadDom =
    "import json, sys\n"
    "from html.parser import HTMLParser\n"
    "VOID = {'area','base','br','col','embed','hr','img','input','link','meta','source','track','wbr'}\n"
    "class Read(HTMLParser):\n"
    "    def __init__(self):\n"
    "        super().__init__(convert_charrefs=True)\n"
    "        self.elements, self.open = [], []\n"
    "    def handle_starttag(self, tag, attrs):\n"
    "        e = {'tag': tag, 'attrs': {k: (v or '') for k, v in attrs}, 'text': ''}\n"
    "        self.elements.append(e)\n"
    "        if tag not in VOID: self.open.append(e)\n"
    "    def handle_startendtag(self, tag, attrs):\n"
    "        self.elements.append({'tag': tag, 'attrs': {k: (v or '') for k, v in attrs}, 'text': ''})\n"
    "    def handle_endtag(self, tag):\n"
    "        for i in range(len(self.open) - 1, -1, -1):\n"
    "            if self.open[i]['tag'] == tag:\n"
    "                del self.open[i:]\n"
    "                break\n"
    "    def handle_data(self, data):\n"
    "        for e in self.open: e['text'] += data\n"
    "r = Read()\n"
    "r.feed(open(sys.argv[1], encoding='utf-8', errors='strict').read())\n"
    "print(json.dumps(r.elements))\n";

}  // namespace

std::vector<nlohmann::json> BrowserPage::all(const std::string& tag, const std::string& cls) const {
  std::vector<nlohmann::json> out;
  for (const auto& e : elements) {
    if (e["tag"] != tag) continue;
    if (!cls.empty()) {
      const std::string classes = " " + e["attrs"].value("class", std::string()) + " ";
      if (classes.find(" " + cls + " ") == std::string::npos) continue;
    }
    out.push_back(e);
  }
  return out;
}

BrowserPage load_in_chromium(const std::string& file, const std::string& query, const std::string& screenshot) {
  BrowserPage page;
  TempDir tmp;
  CountingListener proxy;
  if (!proxy.port()) return page.error = "no listener on 127.0.0.1", page;
  const std::string url = shell_quoted("file://" + file + (query.empty() ? "" : "?" + query));
  const std::string command = chromium_command(tmp / "profile", proxy.port());
  std::string log;
  if (run(command + "--dump-dom " + url + " > " + shell_quoted(tmp / "dom.html") + " 2> " + shell_quoted(tmp / "log"), nullptr) != 0)
    return page.error = "chromium --dump-dom failed: " + read_file(tmp / "log"), page;
  if (!screenshot.empty() &&
      run(command + "--window-size=1280,1700 --screenshot=" + shell_quoted(screenshot) + " " + url + " 2>> " +
              shell_quoted(tmp / "log"), nullptr) != 0)
    return page.error = "chromium --screenshot failed: " + read_file(tmp / "log"), page;
  for (const std::string& line : split(read_file(tmp / "log"), "\n"))
    if (line.find(":CONSOLE") != std::string::npos) page.console.push_back(line);
  for (const std::string& line : proxy.request_lines())
    (browsers_own(line) ? page.browser_requests : page.requests).push_back(line);
  write_file(tmp / "read_dom.py", kReadDom);
  std::string out;
  if (run("python3 " + shell_quoted(tmp / "read_dom.py") + " " + shell_quoted(tmp / "dom.html") + " 2>&1", &out) != 0)
    return page.error = "the DOM does not parse: " + out, page;
  page.elements = nlohmann::json::parse(out);
  return page;
}

nlohmann::json png_colours(const std::string& png) {
  TempDir tmp;
  write_file(tmp / "colours.py",
             "import json, struct, sys, zlib\n"
             "data = open(sys.argv[1], 'rb').read()\n"
             "if data[:8] != b'\\x89PNG\\r\\n\\x1a\\n': print(json.dumps({'error': 'no PNG signature'})); sys.exit()\n"
             "pos, idat, width, height, depth, ctype = 8, b'', 0, 0, 0, 0\n"
             "while pos < len(data):\n"
             "    n, kind = struct.unpack('>I4s', data[pos:pos + 8])\n"
             "    body = data[pos + 8:pos + 8 + n]\n"
             "    if kind == b'IHDR': width, height, depth, ctype = struct.unpack('>IIBB', body[:10])\n"
             "    if kind == b'IDAT': idat += body\n"
             "    pos += 12 + n\n"
             "bpp = {2: 3, 6: 4}.get(ctype)\n"
             "if depth != 8 or bpp is None: print(json.dumps({'error': 'colour type %d depth %d' % (ctype, depth)})); sys.exit()\n"
             "raw, stride, prev, colours, dark = zlib.decompress(idat), width * bpp, None, set(), 0\n"
             "for y in range(height):\n"
             "    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])\n"
             "    up = prev or bytearray(stride)\n"
             "    for i in range(stride):\n"
             "        a = line[i - bpp] if i >= bpp else 0\n"
             "        b = up[i]\n"
             "        c = up[i - bpp] if i >= bpp else 0\n"
             "        if f == 1: line[i] = (line[i] + a) & 255\n"
             "        elif f == 2: line[i] = (line[i] + b) & 255\n"
             "        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255\n"
             "        elif f == 4:\n"
             "            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)\n"
             "            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255\n"
             "    prev = line\n"
             "    for x in range(0, stride, bpp):\n"
             "        px = bytes(line[x:x + 3]); colours.add(px)\n"
             "        if px != b'\\xff\\xff\\xff': dark += 1\n"
             "print(json.dumps({'colours': len(colours), 'not_white': dark / float(width * height), 'width': width, 'height': height}))\n");
  std::string out;
  if (run("python3 " + shell_quoted(tmp / "colours.py") + " " + shell_quoted(png) + " 2>&1", &out) != 0)
    return {{"error", out}};
  return nlohmann::json::parse(out);
}

}  // namespace imgaudit::test
