import { hl, loop, nm1, type LoopDef } from './loop-spec';

/** 835 Health care claim payment/advice, 005010X221A1 (004010X091A1 has the same loops). */
export const LOOPS_835: LoopDef[] = [
  loop('1000A', 'Payer identification', '', 'N1', 1, 'PR'),
  loop('1000B', 'Payee identification', '', 'N1', 1, 'PE'),
  loop('2000', 'Header number', '', 'LX'),
  loop('2100', 'Claim payment information', ['2000', ''], 'CLP'),
  loop('2110', 'Service payment information', '2100', 'SVC'),
  { ...loop('PLB', 'Provider adjustment (summary)', '', 'PLB'), merge: true },
];

/** 834 Benefit enrollment and maintenance, 005010X220A1. */
export const LOOPS_834: LoopDef[] = [
  loop('1000A', 'Sponsor name', '', 'N1', 1, 'P5'),
  loop('1000B', 'Payer', '', 'N1', 1, 'IN'),
  loop('1000C', 'TPA/broker name', '', 'N1', 1, ['BO', 'TV']),
  loop('1100C', 'TPA/broker account information', '1000C', 'ACT'),
  loop('2000', 'Member level detail', '', 'INS'),
  nm1('2100A', 'Member name', '2000', 'IL', '74'),
  nm1('2100B', 'Incorrect member name', '2000', '70'),
  nm1('2100C', 'Member mailing address', '2000', '31'),
  nm1('2100D', 'Member employer', '2000', '36'),
  nm1('2100E', 'Member school', '2000', 'M8'),
  nm1('2100F', 'Custodial parent', '2000', 'S3'),
  nm1('2100G', 'Responsible person', '2000', 'E1', 'EI', 'EXS', 'GB', 'GD', 'J6', 'LR', 'QD'),
  nm1('2100H', 'Drop-off location', '2000', '45'),
  loop('2200', 'Disability information', '2000', 'DSB'),
  loop('2300', 'Health coverage', '2000', 'HD'),
  loop('2310', 'Provider information', '2300', 'LX'),
  loop('2320', 'Coordination of benefits', '2300', 'COB'),
  nm1('2330', 'Coordination of benefits related entity', '2320', '36', 'GW', 'IN'),
  loop('2700', 'Additional reporting categories', '2000', 'LS'),
  loop('2710', 'Member reporting categories', '2700', 'LX'),
  loop('2750', 'Reporting category', '2710', 'N1', 1, '75'),
];

/** The information source / receiver / subscriber / dependent levels of 270 and 271 (005010X279A1). */
function eligibilityLevels(): LoopDef[] {
  return [
    hl('2000A', 'Information source level', '', '20'),
    nm1('2100A', 'Information source name', '2000A'),
    hl('2000B', 'Information receiver level', '2000A', '21'),
    nm1('2100B', 'Information receiver name', '2000B'),
    hl('2000C', 'Subscriber level', '2000B', '22'),
    nm1('2100C', 'Subscriber name', '2000C'),
    hl('2000D', 'Dependent level', '2000C', '23'),
    nm1('2100D', 'Dependent name', '2000D'),
  ];
}

/** 270 Eligibility, coverage or benefit inquiry. */
export const LOOPS_270: LoopDef[] = [
  ...eligibilityLevels(),
  loop('2110C', 'Subscriber eligibility or benefit inquiry', '2100C', 'EQ'),
  loop('2110D', 'Dependent eligibility or benefit inquiry', '2100D', 'EQ'),
];

/** 271 Eligibility, coverage or benefit information. */
export const LOOPS_271: LoopDef[] = [
  ...eligibilityLevels(),
  loop('2110C', 'Subscriber eligibility or benefit information', '2100C', 'EB'),
  loop('2115C', 'Subscriber eligibility or benefit additional information', '2110C', 'III'),
  nm1('2120C', 'Subscriber benefit related entity name', '2110C'),
  loop('2110D', 'Dependent eligibility or benefit information', '2100D', 'EB'),
  loop('2115D', 'Dependent eligibility or benefit additional information', '2110D', 'III'),
  nm1('2120D', 'Dependent benefit related entity name', '2110D'),
];

/** The payer / receiver / provider / subscriber / dependent levels of 276 and 277 (005010X212). */
function claimStatusLevels(): LoopDef[] {
  return [
    hl('2000A', 'Information source level', '', '20'),
    nm1('2100A', 'Payer name', '2000A'),
    hl('2000B', 'Information receiver level', '2000A', '21'),
    nm1('2100B', 'Information receiver name', '2000B'),
    hl('2000C', 'Service provider level', '2000B', '19'),
    nm1('2100C', 'Service provider name', '2000C'),
    hl('2000D', 'Subscriber level', '2000C', '22'),
    nm1('2100D', 'Subscriber name', '2000D'),
    loop('2200D', 'Claim status tracking number', '2000D', 'TRN'),
    hl('2000E', 'Dependent level', '2000D', '23'),
    nm1('2100E', 'Dependent name', '2000E'),
    loop('2200E', 'Claim status tracking number', '2000E', 'TRN'),
  ];
}

/** 276 Claim status request. */
export const LOOPS_276: LoopDef[] = [
  ...claimStatusLevels(),
  loop('2210D', 'Service line information', '2200D', 'SVC'),
  loop('2210E', 'Service line information', '2200E', 'SVC'),
];

/** 277 Claim status response. */
export const LOOPS_277: LoopDef[] = [
  ...claimStatusLevels(),
  loop('2200B', 'Information receiver trace identifier', '2000B', 'TRN'),
  loop('2200C', 'Service provider trace identifier', '2000C', 'TRN'),
  loop('2220D', 'Service line information', '2200D', 'SVC'),
  loop('2220E', 'Service line information', '2200E', 'SVC'),
];
