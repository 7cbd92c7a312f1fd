// SPDX-License-Identifier: Apache-2.0
// memsctl admin: the daemon's control socket (docs/memstored.md, "Control
// socket"). One JSON request line out, one reply line back, printed as
// JSON; an {"ok": false} reply is an error (exit 1) with the daemon's words.
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "base/expected.h"
#include "host/memsctl_args.h"
#include "host/memsctl_commands.h"

namespace memstore::memsctl {
namespace {

using nlohmann::json;

// A connected AF_UNIX socket.
memstore::Expected<int> connect_to(const std::string& path) {
  sockaddr_un addr{};
  if (path.size() >= sizeof(addr.sun_path)) {
    return memstore::Error("--socket: '" + path + "' is too long for a Unix socket path");
  }
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    const int e = errno;
    if (fd >= 0) ::close(fd);
    return memstore::Error(e, "cannot connect to the control socket '" + path +
                                  "': " + std::strerror(e) +
                                  " (is memstored running with --control-socket, and may this "
                                  "user open it?)");
  }
  return fd;
}

// Sends `line` and reads one reply line (without its newline) within `timeout_s`.
memstore::Expected<std::string> exchange(int fd, const std::string& line, int timeout_s) {
  for (std::size_t sent = 0; sent < line.size();) {
    const ssize_t n = ::send(fd, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = errno;
      return memstore::Error(e, std::string("control socket: send: ") + std::strerror(e));
    }
    sent += static_cast<std::size_t>(n);
  }
  std::string reply;
  char buf[4096];
  while (reply.find('\n') == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, timeout_s * 1000);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) {
      return memstore::Error(ETIMEDOUT,
                             "control socket: no reply within " + std::to_string(timeout_s) + " s");
    }
    const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return memstore::Error("control socket: the daemon closed the connection");
    reply.append(buf, static_cast<std::size_t>(n));
  }
  reply.resize(reply.find('\n'));
  return reply;
}

}  // namespace

std::string default_control_socket() {
  const char* env = std::getenv("MEMSTORED_CONTROL_SOCKET");
  return env != nullptr && *env != '\0' ? env : "/run/memstored/control.sock";
}

int cmd_admin(const AdminArgs& a) {
  // `trace start` is the method trace-start; the one command of two words.
  std::string method = a.command;
  if (a.command == "trace") {
    if (a.action != "start" && a.action != "stop") {
      std::cerr << "memsctl: trace: say start or stop, e.g. memsctl admin trace start --lun 0 "
                   "--file cap.trace\n";
      return kExitUsage;
    }
    method = "trace-" + a.action;
  } else if (!a.action.empty()) {
    std::cerr << "memsctl: " << a.command << ": takes no word after it ('" << a.action
              << "'); only trace does (start or stop)\n";
    return kExitUsage;
  }
  // JSON-RPC 2.0 (docs/memstored.md, "Control socket"): the options are the
  // method's named params.
  json request = json::object();
  if (!a.target.empty()) request["target"] = a.target;
  if (a.lun) request["lun"] = *a.lun;
  if (a.id) request["id"] = *a.id;
  if (a.mode) request["mode"] = *a.mode;
  if (a.scale) request["scale"] = *a.scale;
  if (a.policy) request["policy"] = *a.policy;
  if (a.seed) request["seed"] = *a.seed;
  if (a.off_ms) request["off_ms"] = *a.off_ms;
  if (a.initiator) request["initiator"] = *a.initiator;
  if (a.format) request["format"] = *a.format;
  // The daemon's working directory is not this one: the path goes absolute.
  if (a.file) request["file"] = std::filesystem::absolute(*a.file).lexically_normal().string();
  // The option, its request key, and an example for the error.
  const struct {
    const std::optional<std::string>& text;
    const char* key;
    const char* example;
  } objects[] = {
      {a.rule, "rule", R"('{"op": "read", "lba": [1000, 1007], "action": "medium-error"}')"},
      {a.config, "config", R"('{"id": 1, "backing": "memory", "timing": "off"}')"},
      {a.chap, "chap", R"('{"user": "host1", "secret": "a-secret-of-12-bytes-or-more"}')"},
  };
  for (const auto& o : objects) {
    if (!o.text) continue;
    const json object = json::parse(*o.text, nullptr, false);
    if (object.is_discarded() || !object.is_object()) {
      std::cerr << "memsctl: --" << o.key << ": must be a JSON object, e.g. " << o.example << "\n";
      return kExitUsage;
    }
    request[o.key] = object;
  }
  const memstore::Expected<int> fd = connect_to(a.socket);
  if (!fd.ok()) {
    std::cerr << "memsctl: " << fd.error().message << "\n";
    return kExitFailure;
  }
  const json call = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", request}};
  const memstore::Expected<std::string> line = exchange(*fd, call.dump() + "\n", a.timeout_s);
  ::close(*fd);
  if (!line.ok()) {
    std::cerr << "memsctl: " << line.error().message << "\n";
    return kExitFailure;
  }
  const json response = json::parse(*line, nullptr, false);
  if (response.is_discarded() || !response.is_object()) {
    std::cerr << "memsctl: control socket: the reply is not JSON\n";
    return kExitFailure;
  }
  if (response.contains("error")) {
    const json& e = response["error"];
    const json message = e.is_object() ? e.value("message", json("refused")) : e;
    std::cerr << "memsctl: " << (message.is_string() ? message.get<std::string>() : message.dump())
              << "\n";
    return kExitFailure;
  }
  if (!response.contains("result") || !response["result"].is_object()) {
    std::cerr << "memsctl: control socket: the reply has no result (is the daemon older than "
                 "JSON-RPC?)\n";
    return kExitFailure;
  }
  const json& reply = response["result"];
  // save without --file: the configuration itself, ready to redirect to a file.
  if (a.command == "save" && reply.contains("toml") && reply["toml"].is_string()) {
    std::cout << reply["toml"].get<std::string>();
    return 0;
  }
  std::cout << reply.dump(2) << "\n";
  return 0;
}

}  // namespace memstore::memsctl
