// SPDX-License-Identifier: Apache-2.0
#include "target/control/json_rpc.h"

namespace memstore::control {

bool is_json_rpc(const json& request) {
  return request.is_object() && request.contains("jsonrpc");
}

json rpc_error(int code, const std::string& message, const json& id) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

std::variant<RpcCall, json> rpc_call(const json& request) {
  // §4: an id is a string, a number or null; absent, the request is a notification.
  std::optional<json> id;
  if (request.contains("id")) {
    const json& i = request["id"];
    if (!i.is_string() && !i.is_number() && !i.is_null()) {
      return rpc_error(kRpcInvalidRequest, "id: must be a string, a number or null");
    }
    id = i;
  }
  const json shown_id = id.value_or(nullptr);
  if (request["jsonrpc"] != "2.0") {
    return rpc_error(kRpcInvalidRequest, "jsonrpc: must be \"2.0\"", shown_id);
  }
  if (!request.contains("method") || !request["method"].is_string()) {
    return rpc_error(kRpcInvalidRequest, "method: is missing; rpc_get_methods lists the methods",
                     shown_id);
  }
  json command = json::object();
  if (request.contains("params")) {
    const json& p = request["params"];
    // By name only: every command's keys are named (docs/memstored.md).
    if (!p.is_object()) {
      return rpc_error(kRpcInvalidParams, "params: must be an object of the command's keys",
                       shown_id);
    }
    if (p.contains("cmd")) {
      return rpc_error(kRpcInvalidParams, "params.cmd: the method names the command", shown_id);
    }
    command = p;
  }
  command["cmd"] = request["method"];
  return RpcCall{std::move(command), id};
}

json rpc_response(const json& reply, const json& id) {
  if (reply.value("ok", false)) {
    json result = reply;
    result.erase("ok");
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", result}};
  }
  const std::string message = reply.value("error", std::string("failed"));
  const bool unknown = message.rfind("cmd: unknown command", 0) == 0;
  return rpc_error(unknown ? kRpcMethodNotFound : kRpcCommandFailed, message, id);
}

}  // namespace memstore::control
