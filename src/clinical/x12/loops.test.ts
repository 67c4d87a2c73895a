import { describe, expect, it } from 'vitest';
import { findLoops, parseX12, type X12Interchange, type X12Loop, type X12Transaction } from './index';
import { x12Sample, x12Samples } from '../../../tests/support/clinical/x12';

function transaction(name: string): X12Transaction {
  const r = parseX12(x12Sample(name));
  if (!r.ok) throw new Error(name);
  return r.interchange.groups[0]!.transactions[0]!;
}

/** The loop tree as `2000A(HL,PRV)[2010AA(NM1,N3,N4,REF)…]`, to compare with what the guides draw. */
function outline(node: { loops: X12Loop[] }): string[] {
  return node.loops.map((l) => `${l.loop}(${l.segments.map((s) => s.id).join(',')})${l.loops.length ? `[${outline(l).join(' ')}]` : ''}`);
}

describe('loops as the implementation guides draw them', () => {
  it('837P 5010: billing provider > subscriber > patient > claim > service lines', () => {
    const tx = transaction('837_005010X222A2/demo.example1.837');
    expect(tx.segments.map((s) => s.id)).toEqual(['BHT']);
    expect(outline(tx)).toEqual([
      '1000A(NM1,PER)',
      '1000B(NM1)',
      '2000A(HL,PRV)[2010AA(NM1,N3,N4,REF) 2010AB(NM1,N3,N4) 2000B(HL,SBR)[2010BA(NM1) 2010BB(NM1) 2000C(HL,PAT)[2010CA(NM1,N3,N4,DMG) 2300(CLM,REF,HI)[2400(LX,SV1,DTP) 2400(LX,SV1,DTP) 2400(LX,SV1,DTP) 2400(LX,SV1,DTP)]]]]',
    ]);
  });

  it('837P 5010: other subscriber (2320/2330) and line drug identification (2410), ordering provider (2420E)', () => {
    expect(outline(findLoops(transaction('837_005010X222A2/demo.example12.837'), '2300')[0]!)).toEqual([
      '2310B(NM1)',
      '2320(SBR,OI)[2330A(NM1,N3,N4) 2330B(NM1)]',
      '2400(LX,SV1,DTP)',
    ]);
    const drug = findLoops(transaction('837_005010X222A2/demo.drug.example10.3.837'), '2400')[1]!;
    expect(outline(drug)).toEqual(['2410(LIN,CTP,REF)', '2420E(NM1)']);
  });

  it('837I 4010: the payer is 2010BC (2010BB is the card holder), attending physician 2310A, other payer 2330B', () => {
    const tx = transaction('837_004010X096A1/institutional.837');
    expect(tx.kind).toBe('837I');
    expect(tx.segments.map((s) => s.id)).toEqual(['BHT', 'REF']);
    const subscriber = findLoops(tx, '2000B')[0]!;
    expect(outline(subscriber)).toEqual([
      '2010BA(NM1,N3,N4,DMG)',
      '2010BC(NM1)',
      '2300(CLM,DTP,CL1,HI,HI,HI,HI,HI,HI)[2310A(NM1,PRV) 2320(SBR,DMG,OI)[2330A(NM1,N3,N4) 2330B(NM1)] 2400(LX,SV2,DTP) 2400(LX,SV2,DTP)]',
    ]);
  });

  it('837I 5010: two claims of one provider, attending (2310A) and rendering names', () => {
    const tx = transaction('837_005010X223A3/two-claims-single-provider.837i');
    expect(findLoops(tx, '2300').map((c) => outline(c).map((l) => l.split('(')[0]))).toEqual([
      ['2310A', '2400', '2400'],
      ['2310A', '2400'],
    ]);
  });

  it('835: payer, payee, header numbers, claim payments, service payments and the PLB summary', () => {
    expect(outline(transaction('835_005010X221A1/medicare-part-a.835'))).toEqual([
      '1000A(N1,N3,N4,REF)',
      '1000B(N1)',
      '2000(LX,TS3,TS2)[2100(CLP,CAS,NM1,MIA,DTM,DTM,QTY)]',
      '2000(LX,TS3)[2100(CLP,CAS,NM1,MOA,DTM)]',
      'PLB(PLB)',
    ]);
    expect(outline(transaction('835_005010X221A1/managed-care.835'))).toEqual([
      '1000A(N1,N3,N4)',
      '1000B(N1,REF)',
      '2000(LX)[2100(CLP,CAS,NM1)[2110(SVC,DTM,DTM,CAS)] 2100(CLP,CAS,NM1)[2110(SVC,DTM,DTM,CAS,CAS)]]',
    ]);
  });

  it('834, 270, 271, 276 and 277', () => {
    expect(outline(transaction('834_005010X220A1/enroll-employee-multiple-products.834'))).toEqual([
      '1000A(N1)',
      '1000B(N1)',
      '2000(INS,REF,REF,DTP)[2100A(NM1,PER,N3,N4,DMG) 2300(HD,DTP) 2300(HD,DTP)]',
    ]);
    expect(outline(transaction('270_005010X279A1/dependent-health-benefit-check.270'))).toEqual([
      '2000A(HL)[2100A(NM1) 2000B(HL)[2100B(NM1) 2000C(HL)[2100C(NM1) 2000D(HL,TRN)[2100D(NM1,DMG,DTP)[2110D(EQ)]]]]]',
    ]);
    expect(outline(findLoops(transaction('271_005010X279A1/subscriber-health-benefit-check.271'), '2100C')[0]!)).toEqual([
      '2110C(EB)',
      '2110C(EB,LS)[2120C(NM1,LE)]',
      '2110C(EB)',
      '2110C(EB)',
      '2110C(EB)',
    ]);
    expect(findLoops(transaction('276_005010X212/claim-level-status.276'), '2210E').map((l) => l.segments.map((s) => s.id))).toEqual([['SVC', 'DTP']]);
    expect(findLoops(transaction('277_005010X212/claim-level-status.277'), '2220E').map((l) => l.segments.map((s) => s.id))).toEqual([['SVC', 'STC', 'DTP']]);
  });

  it('on every 837 and 835 sample, one loop per trigger segment in the text, each starting with it', () => {
    const triggers: Record<string, [string, string]> = {
      '2300': ['837', 'CLM'],
      '2400': ['837', 'LX'],
      '2320': ['837', 'SBR'],
      '2100': ['835', 'CLP'],
      '2110': ['835', 'SVC'],
    };
    let loops = 0;
    for (const { name, text } of [...x12Samples('837'), ...x12Samples('835')]) {
      const r = parseX12(text);
      const tx = (r.ok ? r.interchange : undefined)!.groups[0]!.transactions[0]!;
      for (const [id, [set, first]] of Object.entries(triggers)) {
        if (tx.set !== set) continue;
        const found = findLoops(tx, id);
        const count = (re: RegExp) => text.split('~').filter((seg) => re.test(seg.trim())).length;
        // every subscriber level (HL*…*22) has its own SBR; the other SBRs open 2320 loops
        const inText = count(new RegExp(`^${first}\\*`)) - (id === '2320' ? count(/^HL\*[^*]*\*[^*]*\*22/) : 0);
        expect(found.length, `${name} ${id}`).toBe(inText);
        for (const l of found) expect(l.segments[0]!.id, `${name} ${id}`).toBe(first);
        loops += found.length;
      }
    }
    expect(loops).toBeGreaterThan(100); // the checks above really ran
  });
});
