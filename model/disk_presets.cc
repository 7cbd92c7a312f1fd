// SPDX-License-Identifier: Apache-2.0
// The parameter sets of the zoned disks (see the header).
#include "model/disk_presets.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace memstore::model {
namespace {

// --- Quantum Atlas 10K ---------------------------------------------------------
// Every number below is DiskSim 4.0's validated Atlas 10K (the "QUANTUM_TORNADO_validate"
// disk of valid/atlas10k.parv, valid/atlas10k.diskspecs, valid/atlas10k.model and
// valid/atlas10k.seek in the CMU release), which Ganger and Schindler extracted from the
// drive (DIXtrac, "Database of validated disk parameters", 2004; the thesis cites the same
// 334/229 sectors per track in §2.4). The parameter names in the comments are DiskSim's.

// atlas10k.model, "Zones": first and last cylinder, "Blocks per track", "Skew for track
// switch", "Skew for cylinder switch", "Number of spares" and "slips" of each of the 24
// bands ("Sparing scheme used = 9": spares per zone, at its end; "LBN-to-PBN mapping scheme
// = 1": a cylinder switch stays on the same surface, see disk_layout.h).
std::vector<DiskZone> atlas10k_zones() {
  return {
      {0, 432, 334, 63, 113, 89, {55017, 358148, 394564, 420533, 483742}},
      {433, 848, 334, 63, 113, 84, {}},
      {849, 1264, 334, 63, 113, 87, {194210, 447828, 683935}},
      {1265, 1688, 324, 63, 101, 85, {537635}},
      {1689, 2104, 324, 63, 101, 84, {}},
      {2105, 2520, 324, 63, 101, 85, {54818}},
      {2521, 2936, 324, 62, 101, 84, {}},
      {2937, 3360, 324, 61, 98, 92, {138144, 291290, 615857, 616604, 619565, 620636}},
      {3361, 3776, 324, 61, 98, 87, {534099, 587856, 611695}},
      {3777, 4192, 324, 61, 98, 85, {786643}},
      {4193, 4608, 324, 61, 98, 85, {292535}},
      {4609, 5032, 306, 58, 98, 79, {688362}},
      {5033, 5448, 306, 58, 98, 89, {119404, 122999, 123000, 123212, 123213, 126501}},
      {5449, 5864, 302, 57, 92, 88, {307482, 634665, 634666, 665410, 668170, 669168}},
      {5865, 6280, 293, 56, 91, 73, {725499}},
      {6281, 6704, 288, 55, 91, 85, {474619, 474620, 476035, 476036, 477915, 477916}},
      {6705, 7120, 288, 55, 88, 72, {}},
      {7121, 7536, 280, 54, 88, 77, {49233, 206955, 206956, 425882, 480918}},
      {7537, 7952, 270, 51, 87, 66, {}},
      {7953, 8376, 262, 51, 83, 66, {}},
      {8377, 8792, 255, 48, 83, 66, {}},
      {8793, 9208, 246, 47, 75, 60, {}},
      {9209, 9624, 237, 45, 75, 60, {}},
      {9625, 10041, 229, 44, 75, 229, {}},
  };
}

// atlas10k.seek: "Seek distances measured: 138", distance in cylinders and time in ms
// (here ns), used with "Seek type = extracted". The curve is measured and not monotone
// (8 cylinders: 1.645 ms, 9: 1.506 ms); DiskSim uses it as it is and so do we.
std::vector<SeekPoint> atlas10k_seek_curve() {
  return {
      {1, 1245000},     {2, 1157000},      {3, 1163000},      {4, 1378000},     {5, 1355000},
      {6, 1437000},     {7, 1494000},      {8, 1645000},      {9, 1506000},     {10, 1531000},
      {12, 1515000},    {14, 1535000},     {16, 1547000},     {18, 1576000},    {20, 1620000},
      {25, 1628000},    {30, 1698000},     {35, 1804000},     {40, 1929000},    {45, 2051000},
      {50, 1863000},    {60, 2313000},     {70, 1927000},     {80, 2420000},    {90, 1970000},
      {100, 2011000},   {125, 2083000},    {150, 2531000},    {175, 2380000},   {200, 2651000},
      {225, 2785000},   {250, 2858000},    {275, 2843000},    {300, 2930000},   {325, 2992000},
      {350, 2987000},   {375, 3047000},    {400, 3146000},    {425, 3065000},   {450, 3159000},
      {475, 3298000},   {500, 3208000},    {600, 3097000},    {700, 3263000},   {800, 3321000},
      {900, 3516000},   {1000, 3820000},   {1100, 3892000},   {1200, 3825000},  {1300, 3920000},
      {1400, 5225000},  {1500, 4198000},   {1600, 4513000},   {1700, 4305000},  {1800, 4426000},
      {1900, 4802000},  {2000, 4842000},   {2100, 4975000},   {2200, 5013000},  {2300, 5162000},
      {2400, 4891000},  {2500, 5224000},   {2600, 5395000},   {2700, 5158000},  {2800, 5218000},
      {2900, 5320000},  {3000, 5643000},   {3100, 5468000},   {3200, 5465000},  {3300, 5630000},
      {3400, 5664000},  {3500, 5703000},   {3600, 5809000},   {3700, 5862000},  {3800, 6059000},
      {3900, 6200000},  {4000, 6226000},   {4100, 6313000},   {4200, 6415000},  {4300, 6255000},
      {4400, 6357000},  {4500, 6405000},   {4600, 6486000},   {4700, 9463000},  {4800, 6714000},
      {4900, 6816000},  {5000, 6814000},   {5100, 7239000},   {5200, 7306000},  {5300, 7025000},
      {5400, 7103000},  {5500, 7257000},   {5600, 7221000},   {5700, 7332000},  {5800, 7377000},
      {5900, 7443000},  {6000, 7525000},   {6100, 7610000},   {6200, 7706000},  {6300, 7744000},
      {6400, 7806000},  {6500, 7892000},   {6600, 7992000},   {6700, 8079000},  {6800, 8078000},
      {6900, 8170000},  {7000, 8205000},   {7100, 8359000},   {7200, 8686000},  {7300, 8778000},
      {7400, 8539000},  {7500, 8551000},   {7600, 8999000},   {7700, 8714000},  {7800, 9192000},
      {7900, 8852000},  {8000, 8951000},   {8100, 9058000},   {8200, 9117000},  {8300, 9137000},
      {8400, 9213000},  {8500, 9337000},   {8600, 9433000},   {8700, 9542000},  {8800, 9494000},
      {8900, 9650000},  {9000, 10114000},  {9100, 10092000},  {9200, 9807000},  {9300, 9911000},
      {9400, 10234000}, {9500, 10499000},  {9600, 10160000},  {9700, 10664000}, {9800, 10694000},
      {9900, 10854000}, {10000, 10464000}, {10021, 10828000},
  };
}

ZonedDiskParams atlas10k() {
  ZonedDiskParams p;
  p.name = "atlas10k";
  p.rotation_rpm = 10025;  // atlas10k.model, "Rotation speed (in rpms)"
  p.surfaces = 6;          // "Number of data surfaces"
  p.cylinders = 10042;     // "Number of cylinders"
  p.zones = atlas10k_zones();
  p.seek_curve = atlas10k_seek_curve();
  p.head_switch_ns = 176'000;   // "Head switch time = 0.17600" (ms)
  p.write_settle_ns = 487'000;  // "Add. write settling delay = 0.48700"
  p.zero_latency = true;        // "Immediate buffer read = 1", "Immediate buffer write = 1"
  p.bus_ns_per_block = 99'000;  // atlas10k.diskspecs, "Bulk sector transfer time = 0.099"
  // atlas10k.diskspecs: "Read hit over. after read/after write = 0.184", "Read miss over.
  // after read/after write = 0.0", "Write hit over. after read = 0.186", "... after write =
  // 0.189" ("Fast write level = 2": every write is a write hit into the buffer).
  p.overheads.read_hit_after_read_ns = 184'000;
  p.overheads.read_hit_after_write_ns = 184'000;
  p.overheads.read_miss_after_read_ns = 0;
  p.overheads.read_miss_after_write_ns = 0;
  p.overheads.write_after_read_ns = 186'000;
  p.overheads.write_after_write_ns = 189'000;
  // "Number of buffer segments = 10", "Segment size (in blks) = 374", "Fast write level = 2"
  // (write-back; dirty data flushed before any other command), "Maximum number of write
  // segments = 1".
  p.cache.segments = 10;
  p.cache.segment_blocks = 374;
  p.cache.write_back = true;
  return p;
}

// `p` (a copy of `base`) carried to another drive: `rpm`; the seek curve and
// head switch scaled by one factor, chosen so that the mean seek over random
// cylinder pairs is `mean_seek_ns` (a faster actuator); each zone's sectors per
// track from `sectors(base zone)`; skews kept as times, scaled like the seek,
// in the new sectors; no spares or slips (one drive's own defects). Returns the
// seek factor, for what else the caller scales with it.
template <class Sectors>
double carry(ZonedDiskParams& p, const ZonedDiskParams& base, std::int32_t rpm, double mean_seek_ns,
             Sectors sectors) {
  p.rotation_rpm = rpm;
  const double seek_scale = mean_seek_ns / mean_random_seek_ns(base);
  for (SeekPoint& s : p.seek_curve)
    s.time_ns = std::llround(static_cast<double>(s.time_ns) * seek_scale);
  p.head_switch_ns = std::llround(static_cast<double>(base.head_switch_ns) * seek_scale);
  const double old_rev_ns = 60e9 / base.rotation_rpm;
  const double new_rev_ns = 60e9 / p.rotation_rpm;
  for (std::size_t i = 0; i < p.zones.size(); ++i) {
    const DiskZone& old = base.zones[i];
    DiskZone& z = p.zones[i];
    z.sectors_per_track = sectors(old);
    auto skew = [&](std::int32_t old_sectors) {
      const double t_ns = old_rev_ns * old_sectors / old.sectors_per_track * seek_scale;
      return static_cast<std::int32_t>(std::ceil(t_ns / new_rev_ns * z.sectors_per_track));
    };
    z.track_skew_sectors = skew(old.track_skew_sectors);
    z.cylinder_skew_sectors = skew(old.cylinder_skew_sectors);
    z.spare_sectors = 0;
    z.slips.clear();
  }
  return seek_scale;
}

// --- The disk-array paper's 20,000 rpm disk --------------------------------------------
// Uysal, Merchant and Riedel ("Using MEMS-based storage in disk arrays", FAST 2003) pair
// MEMStores with an aggressive future disk: 20,000 rpm, 3 ms average seek, 125 MB/s media
// rate (issue 19 quotes the three figures). The paper gives no layout or cache, so this
// preset is the Atlas 10K extrapolated to those three figures:
// - rotation 20,000 rpm: a revolution of 3 ms;
// - zone 0 carries 125 MB/s: 125e6 B/s x 3 ms / 512 B = 732 sectors per track; every other
//   zone keeps its ratio to zone 0 of the Atlas 10K (the 3:2 outer-to-inner ratio, §2.4);
// - the seek curve, head switch and write settle are the Atlas 10K's scaled by one factor,
//   chosen so that the mean seek over random cylinder pairs is 3 ms (a faster actuator);
// - skews keep the Atlas 10K's skew times, scaled by the same factor, in the new sectors;
// - the host interface is Ultra320 SCSI (320 MB/s, 1.6 us per block), faster than the
//   media as on the Atlas 10K's own Ultra2 interface when it was new; the cache and
//   controller overheads are the Atlas 10K's.
ZonedDiskParams disk20k() {
  const ZonedDiskParams a = atlas10k();
  ZonedDiskParams p = a;
  p.name = "disk20k";
  const double outer_sectors = std::floor(125e6 * (60.0 / 20'000) / a.block_bytes);
  const double seek_scale = carry(p, a, 20'000, 3e6, [&](const DiskZone& old) {
    return static_cast<std::int32_t>(
        std::lround(outer_sectors * old.sectors_per_track / a.zones[0].sectors_per_track));
  });
  p.write_settle_ns = std::llround(static_cast<double>(a.write_settle_ns) * seek_scale);
  p.bus_ns_per_block = 1'600;
  return p;
}

// --- Seagate Cheetah 4LP (ST34501N) ----------------------------------------------------------
// Seed 003's reference disk (Schlosser et al., ASPLOS IX, §2.1 and Table 2: a Cheetah 4LP
// ST-34501W, "a validated DiskSim module"). Every number below is DiskSim's validated Cheetah
// 4LP ("SEAGATE_ST34501N_validate" of valid/cheetah4LP.parv, with valid/cheetah4LP.model and
// valid/cheetah4LP.seek, in the CMU release; the same files as the Atlas 10K's above). The W
// and N of the model number differ only in the SCSI connector. Parameter names in the
// comments are DiskSim's. Table 2 agrees where it overlaps: 10,033 rpm, 8 data surfaces,
// 2.99 ms average latency (half a revolution); its "130-194 sectors per track" counts one
// fewer than DiskSim's zones.

// cheetah4LP.model, "Zones": first and last cylinder, "Blocks per track", "Skew for track
// switch", "Skew for cylinder switch", "Number of spares" and "slips" of each of the 7 bands.
// The cylinder after each band (1344, 2449, ...) is in none and holds no LBN. "Sparing scheme
// used = 8" with "Rangesize for sparing = 12": 108 spares at the end of every 12 cylinders.
// Zone 1's "defects = [233375, 233375]" remaps a sector to itself, which changes no timing,
// so it is left out.
std::vector<DiskZone> cheetah4lp_zones() {
  return {
      {0, 1343, 195, 22, 37, 108, {1448762, 1916532, 1918075, 1919618, 1921161}},
      {1345, 2448, 187, 22, 35, 108, {234713, 236193, 237860, 239340, 240820, 242299, 1624216}},
      {2450, 3541, 176, 20, 33, 108, {}},
      {3543,
       4406,
       166,
       19,
       31,
       108,
       {365917, 367310, 368623, 369937, 820783, 822097, 823410, 824724}},
      {4408, 5223, 155, 18, 29, 108, {}},
      {5225, 5956, 145, 17, 27, 108, {}},
      {5958, 6580, 131, 15, 25, 108, {}},
  };
}

// cheetah4LP.seek: "Seek distances measured: 103", distance in cylinders and time in ms (here
// ns), used with "Seek type = extracted" (1 cylinder: "Single cylinder seek time = 0.636";
// 6,580: "Full strobe seek time = 16.107").
std::vector<SeekPoint> cheetah4lp_seek_curve() {
  return {{1, 636000},      {2, 1146000},     {3, 1160000},     {4, 1275000},     {5, 1285000},
          {6, 1403000},     {7, 1287000},     {8, 1420000},     {9, 1539000},     {10, 1416000},
          {12, 1527000},    {14, 1550000},    {16, 1547000},    {18, 1547000},    {20, 1679000},
          {25, 1928000},    {30, 1936000},    {35, 1937000},    {40, 2070000},    {45, 2187000},
          {50, 2314000},    {60, 2325000},    {70, 2324000},    {80, 2459000},    {90, 2586000},
          {100, 2705000},   {125, 3111000},   {150, 3627000},   {175, 3622000},   {200, 3754000},
          {225, 3875000},   {250, 3878000},   {275, 3843000},   {300, 4008000},   {325, 4007000},
          {350, 4135000},   {375, 4136000},   {400, 4138000},   {425, 4266000},   {450, 4397000},
          {475, 4400000},   {500, 4414000},   {600, 4795000},   {700, 5056000},   {800, 5426000},
          {900, 5576000},   {1000, 5838000},  {1100, 6099000},  {1200, 6356000},  {1300, 6606000},
          {1400, 6744000},  {1500, 7003000},  {1600, 7138000},  {1700, 7269000},  {1800, 7398000},
          {1900, 7779000},  {2000, 7788000},  {2100, 8050000},  {2200, 8178000},  {2300, 8433000},
          {2400, 8568000},  {2500, 8817000},  {2600, 8824000},  {2700, 9082000},  {2800, 9221000},
          {2900, 9474000},  {3000, 9727000},  {3100, 9857000},  {3200, 9997000},  {3300, 10254000},
          {3400, 10383000}, {3500, 10513000}, {3600, 10647000}, {3700, 10905000}, {3800, 11039000},
          {3900, 11297000}, {4000, 11429000}, {4100, 11552000}, {4200, 11817000}, {4300, 11946000},
          {4400, 12176000}, {4500, 12334000}, {4600, 12466000}, {4700, 12723000}, {4800, 12856000},
          {4900, 12990000}, {5000, 13241000}, {5100, 13368000}, {5200, 13635000}, {5300, 13758000},
          {5400, 13904000}, {5500, 14157000}, {5600, 14288000}, {5700, 14414000}, {5800, 14673000},
          {5900, 14809000}, {6000, 15060000}, {6100, 15186000}, {6200, 15330000}, {6300, 15579000},
          {6400, 15727000}, {6500, 15969000}, {6580, 16107000}};
}

ZonedDiskParams cheetah4lp() {
  ZonedDiskParams p;
  p.name = "cheetah4lp";
  p.rotation_rpm = 10033;  // cheetah4LP.model, "Rotation speed (in rpms)"; Table 2: 10,033
  p.surfaces = 8;          // "Number of data surfaces"; Table 2: 8
  p.cylinders = 6581;      // "Number of cylinders"
  p.zones = cheetah4lp_zones();
  p.spare_range_cylinders = 12;          // "Sparing scheme used = 8", "Rangesize ... = 12"
  p.cylinder_switch_on_surface = false;  // "LBN-to-PBN mapping scheme = 0"
  p.seek_curve = cheetah4lp_seek_curve();
  p.head_switch_ns = 195'000;    // "Head switch time = 0.195"
  p.write_settle_ns = 0;         // "Add. write settling delay = 0.0"
  p.zero_latency = false;        // "Immediate buffer read = 0", "Immediate buffer write = 0"
  p.bus_ns_per_block = 106'000;  // cheetah4LP.parv, "Bulk sector transfer time = 0.106"
  // cheetah4LP.parv: "Read hit over. after read = 0.068", "... after write = 0.309", "Read miss
  // over. after read = 0.60773", "... after write = 0.56883". Writes: "Fast write level = 1"
  // reports a write early only when it appends to the dirty data of a sequential write
  // stream; memsim models level 2 or none, so the Cheetah writes through (write_back false)
  // and a write costs DiskSim's write-miss overheads, "Write miss over. after read = 0.43133",
  // "... after write = 0.53776". Sequential write streams are therefore slower than DiskSim's;
  // a random write is a miss in both.
  p.overheads.read_hit_after_read_ns = 68'000;
  p.overheads.read_hit_after_write_ns = 309'000;
  p.overheads.read_miss_after_read_ns = 607'730;
  p.overheads.read_miss_after_write_ns = 568'830;
  p.overheads.write_after_read_ns = 431'330;
  p.overheads.write_after_write_ns = 537'760;
  // "Number of buffer segments = 3", "Segment size (in blks) = 282", "Maximum read-ahead
  // (blks) = 282". memsim's read-ahead rule is the Atlas 10K's ("Buffer continuous read = 4",
  // see disk_zoned.h); the Cheetah's is 3.
  p.cache.segments = 3;
  p.cache.segment_blocks = 282;
  p.cache.write_back = false;
  return p;
}

// --- Seed 003's SuperDisk ------------------------------------------------------------------
// "An aggressive disk drive projection to the year 2005" (Schlosser et al., §2.1 and Table 2):
// 14,400 rpm, 520-776 sectors per track, 2 data surfaces, 2.08 ms average latency, 5.0 ms
// average seek (read and write), 10.6 ms full stroke, "streaming bandwidth of up to 100
// MB/second". The paper gives no layout, curve or cache, so the SuperDisk is the Cheetah 4LP
// above carried to those figures:
// - rotation 14,400 rpm (Table 2; half a revolution is Table 2's 2.08 ms latency);
// - 2 surfaces; every zone has 4 x (the Cheetah's sectors per track - 1): 520 to 776, Table
//   2's range, which is 4 times its Cheetah column (zone 0 streams 776 x 512 B x 240/s =
//   95.4 MB/s, "up to 100 MB/second"); the Cheetah's zone boundaries and cylinder count;
// - the seek curve, head switch and skew times are the Cheetah's scaled by one factor
//   (0.628), chosen so that the mean seek over random cylinder pairs is Table 2's 5.0 ms (the
//   Cheetah's curve gives 7.96 ms; Table 2 quotes 7.7 ms); the full stroke then comes out at
//   10.12 ms against Table 2's 10.6 ms: one factor cannot meet both, and the average is the
//   figure the text projects ("its seek time drops by 40% ... to a 5 ms average");
// - no write settle (Table 2's read and write seeks are equal);
// - no spares or slips (those are one Cheetah's defects);
// - host interface Ultra320 SCSI (1.6 us a block, as disk20k), faster than the media;
// - the cache is the Cheetah's 3 segments, each 4 times larger (1128 blocks) so that it still
//   holds as many tracks; overheads and write-through are the Cheetah's.
ZonedDiskParams superdisk() {
  const ZonedDiskParams c = cheetah4lp();
  ZonedDiskParams p = c;
  p.name = "superdisk";
  p.surfaces = 2;
  carry(p, c, 14'400, 5e6, [](const DiskZone& old) { return 4 * (old.sectors_per_track - 1); });
  p.write_settle_ns = 0;
  p.spare_range_cylinders = 0;
  p.bus_ns_per_block = 1'600;
  p.cache.segment_blocks = 4 * c.cache.segment_blocks;
  return p;
}

bool parse_ns(std::string_view text, Ns& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc{} && end == text.data() + text.size() && out >= 0;
}

// The presets by name, one table: disk_preset() and disk_preset_names() both read it.
struct NamedDisk {
  const char* name;
  ZonedDiskParams (*make)();
};
constexpr NamedDisk kDisks[] = {
    {"atlas10k", atlas10k},
    {"disk20k", disk20k},
    {"cheetah4lp", cheetah4lp},
    {"superdisk", superdisk},
};

}  // namespace

std::vector<std::string> disk_preset_names() {
  std::vector<std::string> names;
  for (const NamedDisk& d : kDisks) names.emplace_back(d.name);
  return names;
}

std::optional<ZonedDiskParams> disk_preset(std::string_view name) {
  for (const NamedDisk& d : kDisks) {
    if (name == d.name) return d.make();
  }
  return std::nullopt;
}

Ns curve_seek_ns(const std::vector<SeekPoint>& curve, std::int32_t distance) {
  if (distance <= 0 || curve.empty()) return 0;
  if (curve.size() == 1) return curve.front().time_ns;
  // The first point at or past the distance; past the end, the last two points extrapolate.
  auto it =
      std::lower_bound(curve.begin(), curve.end(), distance,
                       [](const SeekPoint& s, std::int32_t d) { return s.distance_cylinders < d; });
  if (it != curve.end() && it->distance_cylinders == distance) return it->time_ns;
  if (it == curve.begin()) return it->time_ns;  // below the first point: its time
  if (it == curve.end()) --it;
  const SeekPoint& lo = *(it - 1);
  const SeekPoint& hi = *it;
  const double frac = static_cast<double>(distance - lo.distance_cylinders) /
                      (hi.distance_cylinders - lo.distance_cylinders);
  return lo.time_ns + std::llround(frac * static_cast<double>(hi.time_ns - lo.time_ns));
}

double mean_random_seek_ns(const ZonedDiskParams& p) {
  const double c = p.cylinders;
  double sum = 0;
  for (std::int32_t d = 1; d < p.cylinders; ++d) {
    sum += 2.0 * (c - d) / (c * c) * static_cast<double>(curve_seek_ns(p.seek_curve, d));
  }
  return sum;
}

std::vector<ParamError> validate(const ZonedDiskParams& p) {
  std::vector<ParamError> errors;
  auto fail = [&errors](const char* key, std::string message) {
    errors.push_back({key, std::move(message)});
  };
  if (!(p.rotation_rpm > 0) || !std::isfinite(p.rotation_rpm)) {
    fail("rotation_rpm", "must be a positive number");
  }
  if (p.surfaces < 1) fail("surfaces", "must be 1 or more");
  if (p.cylinders < 2) fail("cylinders", "must be 2 or more");
  if (p.block_bytes < 1) fail("block_bytes", "must be 1 or more");
  if (p.zones.empty()) fail("zones", "must hold at least one zone");
  if (p.spare_range_cylinders < 0) fail("spare_range_cylinders", "must be 0 (per zone) or more");
  std::int32_t next = 0;
  for (const DiskZone& z : p.zones) {
    // Cylinders between zones are allowed (they hold no LBN), but the first zone starts
    // at cylinder 0 and zones do not overlap.
    const bool in_order = z.first_cylinder == 0 ? next == 0 : z.first_cylinder >= next && next > 0;
    if (!in_order || z.last_cylinder < z.first_cylinder) {
      fail("zones", "must start at cylinder 0 and follow one another in order");
      break;
    }
    const std::int32_t cylinders = z.last_cylinder - z.first_cylinder + 1;
    const std::int32_t range_cylinders =
        p.spare_range_cylinders > 0 && p.spare_range_cylinders <= cylinders
            ? p.spare_range_cylinders
            : cylinders;
    const std::int64_t sectors =
        std::int64_t{range_cylinders} * std::max(p.surfaces, 1) * z.sectors_per_track;
    if (z.sectors_per_track < 1 || z.track_skew_sectors < 0 || z.cylinder_skew_sectors < 0 ||
        z.spare_sectors < 0 || z.spare_sectors + std::int64_t(z.slips.size()) >= sectors ||
        !std::is_sorted(z.slips.begin(), z.slips.end())) {
      fail("zones", "zone at cylinder " + std::to_string(z.first_cylinder) +
                        ": sectors, skews, spares or slips out of range");
    }
    next = z.last_cylinder + 1;
  }
  if (!p.zones.empty() && next != p.cylinders) {
    fail("zones", "must end at the last cylinder");
  }
  if (p.seek_curve.empty()) fail("seek_curve", "must hold at least one point");
  for (std::size_t i = 0; i < p.seek_curve.size(); ++i) {
    const bool increasing =
        i == 0 || p.seek_curve[i].distance_cylinders > p.seek_curve[i - 1].distance_cylinders;
    if (p.seek_curve[i].distance_cylinders < 1 || p.seek_curve[i].time_ns < 0 || !increasing) {
      fail("seek_curve", "distances must increase from 1 and times be 0 or more");
      break;
    }
  }
  if (p.head_switch_ns < 0) fail("head_switch_ns", "must be 0 or more");
  if (p.write_settle_ns < 0) fail("write_settle_ns", "must be 0 or more");
  if (p.bus_ns_per_block < 0) fail("bus_ns_per_block", "must be 0 or more");
  if (p.cache.segments < 0) fail("cache_segments", "must be 0 or more");
  if (p.cache.segments > 0 && p.cache.segment_blocks < 1) {
    fail("cache_segment_blocks", "must be 1 or more when there is a cache");
  }
  return errors;
}

BasicStatus<ParamError> apply_disk_override(ZonedDiskParams& p, std::string_view kv) {
  const std::size_t eq = kv.find('=');
  if (eq == std::string_view::npos) {
    return ParamError{std::string(kv), "expected key=value"};
  }
  const std::string key(kv.substr(0, eq));
  const std::string_view value = kv.substr(eq + 1);
  // The knobs, one table: where each key lands.
  struct Knob {
    const char* key;
    Ns* field;
  };
  Ns segments = p.cache.segments;
  Ns segment_blocks = p.cache.segment_blocks;
  const Knob knobs[] = {
      {"head_switch_ns", &p.head_switch_ns},     {"write_settle_ns", &p.write_settle_ns},
      {"bus_ns_per_block", &p.bus_ns_per_block}, {"cache_segments", &segments},
      {"cache_segment_blocks", &segment_blocks},
  };
  if (key == "write_back") {
    if (value != "true" && value != "false") {
      return ParamError{key, "write_back: expected true or false"};
    }
    p.cache.write_back = value == "true";
    return {};
  }
  for (const Knob& k : knobs) {
    if (key != k.key) continue;
    Ns v = 0;
    if (!parse_ns(value, v) || v > (Ns{1} << 31)) {
      return ParamError{key, key + ": expected a whole number, 0 or more"};
    }
    *k.field = v;
    p.cache.segments = static_cast<std::int32_t>(segments);
    p.cache.segment_blocks = static_cast<std::int32_t>(segment_blocks);
    return {};
  }
  return ParamError{key, "unknown key '" + key +
                             "' (a disk takes head_switch_ns, write_settle_ns, bus_ns_per_block, "
                             "cache_segments, cache_segment_blocks, write_back)"};
}

}  // namespace memstore::model
