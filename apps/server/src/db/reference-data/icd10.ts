import type { BuiltInList } from './standard-lists';

/**
 * ICD-10 diagnoses. No ICD-10 dataset package (neither the Chinese national clinical edition nor WHO ICD-10 /
 * ICD-10-CM) is available from the package registry this project installs from, so the built-in list holds the
 * classification's published skeleton: its 22 chapters (WHO ICD-10 2019, Chinese titles of GB/T 14396-2016),
 * codes = the chapters' code ranges. A tenant adds finer codes (e.g. the 国家临床版 it uses) as its own list;
 * when a dataset package becomes available, this file is where it is loaded (with parent codes chapter → block →
 * category), and a changed `source` reloads the list at the next start.
 */
const CHAPTERS: readonly (readonly [string, string])[] = [
  ['A00-B99', '第一章 某些传染病和寄生虫病'],
  ['C00-D48', '第二章 肿瘤'],
  ['D50-D89', '第三章 血液及造血器官疾病和涉及免疫机制的某些疾患'],
  ['E00-E90', '第四章 内分泌、营养和代谢疾病'],
  ['F00-F99', '第五章 精神和行为障碍'],
  ['G00-G99', '第六章 神经系统疾病'],
  ['H00-H59', '第七章 眼和附器疾病'],
  ['H60-H95', '第八章 耳和乳突疾病'],
  ['I00-I99', '第九章 循环系统疾病'],
  ['J00-J99', '第十章 呼吸系统疾病'],
  ['K00-K93', '第十一章 消化系统疾病'],
  ['L00-L99', '第十二章 皮肤和皮下组织疾病'],
  ['M00-M99', '第十三章 肌肉骨骼系统和结缔组织疾病'],
  ['N00-N99', '第十四章 泌尿生殖系统疾病'],
  ['O00-O99', '第十五章 妊娠、分娩和产褥期'],
  ['P00-P96', '第十六章 起源于围生期的某些情况'],
  ['Q00-Q99', '第十七章 先天性畸形、变形和染色体异常'],
  ['R00-R99', '第十八章 症状、体征和临床与实验室异常所见，不可归类在他处者'],
  ['S00-T98', '第十九章 损伤、中毒和外因的某些其他后果'],
  ['V01-Y98', '第二十章 疾病和死亡的外因'],
  ['Z00-Z99', '第二十一章 影响健康状态和与保健机构接触的因素'],
  ['U00-U85', '第二十二章 用于特殊目的的编码'],
];

export const ICD10_LIST: BuiltInList = {
  code: 'icd10',
  name: 'ICD-10 疾病诊断',
  description: '国际疾病分类第十次修订本（ICD-10）章',
  source: 'WHO ICD-10 (2019) 章 / GB/T 14396-2016',
  options: CHAPTERS.map(([code, label]) => ({ code, label })),
};
