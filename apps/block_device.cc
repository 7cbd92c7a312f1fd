// SPDX-License-Identifier: Apache-2.0
#include "apps/block_device.h"

#include <algorithm>

#include "modepages/batch_codec.h"

namespace memstore::apps {

std::uint32_t BlockDevice::max_batch_descriptors() const {
  return std::min<std::uint32_t>(geometry().page().max_batch_descriptors,
                                 modepages::kMaxBatchDescriptors);
}

}  // namespace memstore::apps
