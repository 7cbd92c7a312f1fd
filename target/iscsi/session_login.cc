// SPDX-License-Identifier: Apache-2.0
// Session: the login phase (RFC 7143 §6.3, §11.12-11.13), apart from the
// full feature phase in session.cc.
#include <algorithm>

#include "target/iscsi/session.h"
#include "target/iscsi/text_keys.h"
#include "target/scsi/log_sink.h"

namespace memstore::iscsi {
namespace {

// RFC 7143 §11.13.5: the target lacks the resources (a limit was reached).
constexpr LoginStatus kOutOfResources{0x03, 0x02};
// RFC 7143 §11.13.5: the target is unavailable for now; the initiator may
// try again later (a LUN of it has no power, docs/crash-consistency.md).
constexpr LoginStatus kServiceUnavailable{0x03, 0x01};

// Login keys as a debug line shows them: key=value, comma-separated, each
// value made loggable and CHAP_R's (a response computed from the secret)
// replaced by "***".
std::string keys_text(const KeyList& keys) {
  std::string out;
  for (const auto& [key, value] : keys) {
    if (!out.empty()) out += ", ";
    out +=
        scsi::loggable(key) + "=" + (key == "CHAP_R" ? std::string("***") : scsi::loggable(value));
  }
  return out.empty() ? "(no keys)" : out;
}

// The value of `key` in a request's keys (the first, when it is given
// twice), or "".
std::string key_value(const KeyList& keys, std::string_view key) {
  for (const auto& [k, v] : keys) {
    if (k == key) return v;
  }
  return "";
}

}  // namespace

// ---- Login (RFC 7143 §6.3, §11.12-11.13) ----

void Session::set_audit(std::string peer, SecurityLog log) {
  peer_ = std::move(peer);
  security_log_ = std::move(log);
}

void Session::log_event(std::string_view what, std::string_view detail) const {
  if (!event_log_ || discovery_session_) return;
  std::string line{what};
  line += ": initiator " + scsi::loggable(login_initiator_) + " isid 0x" + isid_ + " from " +
          peer_ + ", target " +
          (target_ != nullptr ? target_->name : scsi::loggable(login_target_)) + ", session " +
          std::to_string(tsih_);
  if (!detail.empty()) (line += ": ") += detail;
  event_log_(line);
}

void Session::log_debug(std::string_view what, std::string_view detail,
                        std::string_view initiator) const {
  if (!debugging()) return;
  debug_log_(std::string(what) + ": initiator " +
             scsi::loggable(initiator.empty() ? login_initiator_ : initiator) + " from " + peer_ +
             ": " + std::string(detail));
}

void Session::refuse_login(const LoginRequestPdu& req, LoginStatus status,
                           std::string_view reason) {
  login_reply(req, status, {}, false, 0);
  if (security_log_) {
    security_log_({security_kind(status), status, login_initiator_, peer_,
                   discovery_session_ ? std::string_view{} : std::string_view{login_target_},
                   reason});
  }
  sink_.close();
}

void Session::login_reply(const LoginRequestPdu& req, LoginStatus status, const KeyList& keys,
                          bool transit, std::uint8_t nsg) {
  LoginResponsePdu r;
  r.transit = transit;
  r.csg = static_cast<std::uint8_t>(req.csg);
  r.nsg = transit ? nsg : 0;
  r.version_max = 0;
  r.version_active = 0;
  r.isid = req.isid;
  r.tsih = transit && nsg == static_cast<std::uint8_t>(LoginStage::kFullFeaturePhase) ? tsih_ : 0;
  r.itt = req.itt;
  r.sn = next_status();
  r.status_class = status.status_class;
  r.status_detail = status.detail;
  const std::vector<std::uint8_t> text = to_text(keys);
  r.data_segment_length = static_cast<std::uint32_t>(text.size());
  send(encode(TargetPdu{r}), text);
}

void Session::on_login(const LoginRequestPdu& req, std::span<const std::uint8_t> data) {
  if (!negotiation_) {
    // The first Login Request fixes the session's numbering (RFC 7143 §11.12.4:
    // its CmdSN is the first one; StatSN starts where the initiator expects).
    exp_cmd_sn_ = req.cmd_sn;
    max_cmd_sn_ = req.cmd_sn - 1;  // no window yet; peek_status() opens it from here
    stat_sn_ = req.exp_stat_sn;
  }
  if (req.version_min > 0) {
    return refuse_login(req, {0x02, 0x05}, "iSCSI version not supported");
  }
  if (text_too_long(login_text_.size(), data.size())) {
    // RFC 7143 §11.13.5: 03/02, the target is out of resources for it.
    login_text_.clear();
    return refuse_login(req, kOutOfResources, "login text beyond max_text_bytes");
  }
  login_text_.insert(login_text_.end(), data.begin(), data.end());
  if (req.cont) return login_reply(req, kLoginSuccess, {}, false, 0);  // more text follows
  const auto parsed = parse_text(login_text_);
  login_text_.clear();
  if (!parsed.ok()) return refuse_login(req, kInitiatorError, "malformed login text");
  const KeyList keys = to_keys(*parsed);
  if (debugging()) {
    // Named as the request names itself: the session records who logs in
    // below, as the login goes on, and a debug line changes nothing.
    log_debug("login request",
              "stage " + std::to_string(static_cast<int>(req.csg)) + " -> " +
                  std::to_string(static_cast<int>(req.nsg)) + (req.transit ? " (transit)" : "") +
                  ", " + keys_text(keys),
              login_initiator_.empty() ? key_value(keys, "InitiatorName") : login_initiator_);
  }

  if (!negotiation_) {
    discovery_session_ = key_value(keys, "SessionType") == "Discovery";
    login_initiator_ = key_value(keys, "InitiatorName");
    login_target_ = key_value(keys, "TargetName");
    LoginConfig config = discovery_;
    if (!discovery_session_) {
      target_ = lookup_(login_target_);
      if (target_ == nullptr) {
        return login_target_.empty() ? refuse_login(req, kMissingParameter, "no TargetName")
                                     : refuse_login(req, kTargetNotFound, "no such target");
      }
      if (target_->powered_off()) {
        return refuse_login(req, kServiceUnavailable,
                            "a LUN of the target is without power (a power cut's off time)");
      }
      config = target_->login;
      // The initiator port this session is, for persistent reservations.
      isid_ = isid_hex(req.isid);
      const std::string port = initiator_port_name(login_initiator_, req.isid);
      for (const auto& [id, lun] : target_->luns) lun->describe_nexus(nexus_, port);
    }
    config.local_host = local_host_;
    negotiation_ = std::make_unique<Negotiation>(std::move(config));
  }
  const Phase phase =
      req.csg == LoginStage::kSecurityNegotiation ? Phase::kSecurity : Phase::kOperational;
  Negotiation::Result r = negotiation_->respond(keys, phase);
  if (!r.ok()) return refuse_login(req, r.status, r.reason);

  bool transit = false;
  std::uint8_t nsg = static_cast<std::uint8_t>(req.nsg);
  if (req.transit) {
    if (req.nsg == LoginStage::kFullFeaturePhase) {
      const Negotiation::Result ready = negotiation_->ready_for_full_feature();
      transit = ready.ok();
      if (!ready.ok() && !negotiation_->awaiting_answers()) {
        return refuse_login(req, ready.status, ready.reason);
      }
    } else {
      // Security -> operational once authenticated (or when none is needed).
      transit = !negotiation_->awaiting_answers() &&
                (phase != Phase::kSecurity || negotiation_->authenticated());
    }
  }
  const bool entering = transit && nsg == static_cast<std::uint8_t>(LoginStage::kFullFeaturePhase);
  if (entering && admit_) {
    // The server ends an older session of this initiator port
    // (reinstatement, RFC 7143 §6.3.5) and applies its limits; only an
    // authenticated login gets this far.
    SessionIdentity id{login_initiator_, req.isid, target_ != nullptr ? target_->name : "", nexus_};
    if (!admit_(id)) return refuse_login(req, kOutOfResources, "refused by the server's limits");
  }
  login_reply(req, kLoginSuccess, r.keys, transit, nsg);
  if (debugging()) log_debug("login response", keys_text(r.keys));
  if (entering) {
    params_ = negotiation_->params();
    full_feature_ = true;
    log_event("login");
    if (debugging()) log_debug("negotiated", params_text(params_));
  }
}

}  // namespace memstore::iscsi
