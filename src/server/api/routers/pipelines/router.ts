import { router } from '@/server/api/trpc';
import { create } from './create';
import { remove } from './delete';
import { deploy, undeploy } from './deploy';
import { get } from './get';
import { list } from './list';
import { update } from './update';
import { validate } from './validate';
import { version, versions } from './versions';

export const pipelinesRouter = router({ list, create, get, update, remove, deploy, undeploy, versions, version, validate });
