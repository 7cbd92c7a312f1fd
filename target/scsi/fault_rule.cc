// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/fault_rule.h"

#include <array>

namespace memstore::scsi {
namespace {

struct ActionName {
  FaultAction action;
  std::string_view name;
};

// The configuration's spelling of each action (docs/faults.md).
constexpr ActionName kActions[] = {
    {FaultAction::kMediumError, "medium-error"},
    {FaultAction::kSense, "sense"},
    {FaultAction::kDelay, "delay"},
    {FaultAction::kTimeout, "timeout"},
    {FaultAction::kBusy, "busy"},
    {FaultAction::kTaskSetFull, "task-set-full"},
    {FaultAction::kReservationConflict, "reservation-conflict"},
    {FaultAction::kUnitAttention, "unit-attention"},
    {FaultAction::kSpaceExhausted, "space-exhausted"},
    {FaultAction::kFailedTip, "failed-tip"},
    {FaultAction::kMediaRegion, "media-region"},
    {FaultAction::kDropConnection, "drop-connection"},
    {FaultAction::kCorruptDigest, "corrupt-digest"},
    {FaultAction::kSlowSeek, "slow-seek"},
    {FaultAction::kWithholdR2t, "withhold-r2t"},
    {FaultAction::kPowerCut, "power-cut"},
};

constexpr auto kNames = [] {
  std::array<std::string_view, std::size(kActions)> a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = kActions[i].name;
  return a;
}();

struct AttentionName {
  FaultAttention attention;
  std::string_view name;
  Reason reason;
};

constexpr AttentionName kAttentions[] = {
    {FaultAttention::kPowerOn, "power-on", Reason::kPowerOnReset},
    {FaultAttention::kCapacityChanged, "capacity-changed", Reason::kCapacityDataChanged},
    {FaultAttention::kModeChanged, "mode-changed", Reason::kModeParametersChanged},
};

}  // namespace

std::string_view fault_action_name(FaultAction a) {
  for (const ActionName& n : kActions) {
    if (n.action == a) return n.name;
  }
  return "?";
}

std::optional<FaultAction> parse_fault_action(std::string_view name) {
  for (const ActionName& n : kActions) {
    if (n.name == name) return n.action;
  }
  return std::nullopt;
}

std::span<const std::string_view> fault_action_names() {
  return kNames;
}

std::optional<FaultAttention> parse_fault_attention(std::string_view name) {
  for (const AttentionName& n : kAttentions) {
    if (n.name == name) return n.attention;
  }
  return std::nullopt;
}

std::string_view fault_attention_name(FaultAttention a) {
  for (const AttentionName& n : kAttentions) {
    if (n.attention == a) return n.name;
  }
  return "power-on";
}

Reason attention_reason(FaultAttention a) {
  for (const AttentionName& n : kAttentions) {
    if (n.attention == a) return n.reason;
  }
  return Reason::kPowerOnReset;
}

}  // namespace memstore::scsi
