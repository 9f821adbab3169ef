import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ID_LENGTH } from '../../database/columns.js';
import { PlanEntity } from './plan.entity.js';

/** A venue that offers a plan; `position` keeps the order of the plan's venueIds. */
@Entity('plan_venues')
@Index('idx_plan_venues_venue', ['venueId', 'planId'])
export class PlanVenueEntity {
  @PrimaryColumn({ name: 'plan_id', type: 'varchar', length: ID_LENGTH })
  planId!: string;

  @PrimaryColumn({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  @Column({ type: 'int' })
  position!: number;

  @ManyToOne(() => PlanEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'plan_id', foreignKeyConstraintName: 'fk_plan_venues_plan' })
  plan?: Relation<PlanEntity>;
}
