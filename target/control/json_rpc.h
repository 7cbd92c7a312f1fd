// SPDX-License-Identifier: Apache-2.0
// JSON-RPC 2.0 (jsonrpc.org/specification) on the control socket, beside the
// command form it grew from (docs/memstored.md, "Control socket"): a request
// {"jsonrpc": "2.0", "method": M, "params": {...}, "id": I} is the command
// {"cmd": M, ...params}, and its reply {"ok": true, ...} or {"ok": false,
// "error": E} goes back as {"jsonrpc": "2.0", "id": I, "result": {...}} or
// {"jsonrpc": "2.0", "id": I, "error": {"code": C, "message": E}}. Only the
// translation lives here; ControlCommands runs the command.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

namespace memstore::control {

using nlohmann::json;

// The specification's error codes (§5.1), and the one this server uses for a
// command that failed (its message names the key at fault and the fix).
inline constexpr int kRpcParseError = -32700;
inline constexpr int kRpcInvalidRequest = -32600;
inline constexpr int kRpcMethodNotFound = -32601;
inline constexpr int kRpcInvalidParams = -32602;
inline constexpr int kRpcCommandFailed = -32000;

// Whether a parsed line asks in JSON-RPC (it has a "jsonrpc" member).
bool is_json_rpc(const json& request);

// A JSON-RPC request as the command it names. `id` is unset for a
// notification (no "id" member: it gets no reply, §4.1).
struct RpcCall {
  json command;
  std::optional<json> id;
};
// The call, or the error response a malformed request gets.
std::variant<RpcCall, json> rpc_call(const json& request);

// The command's reply as the response to request `id`. An "unknown command"
// error becomes "method not found".
json rpc_response(const json& reply, const json& id);
// An error response (id null when the request's id is unknown).
json rpc_error(int code, const std::string& message, const json& id = nullptr);

}  // namespace memstore::control
